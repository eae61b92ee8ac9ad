// Reads everything a decision about a company needs, in one place, from one StoreQueries (so a
// caller inside a transaction sees its own writes).
import type { CeoMode } from "@cadre/model";
import { NotFoundError } from "@cadre/core";
import type {
  AgentRow,
  ApprovalRow,
  CompanyRow,
  ConnectorRow,
  NewActivity,
  StoreQueries,
} from "@cadre/store";
import { type CeoModeState, explainCeoMode, resolveCeoMode } from "./modes.js";

/** What the CEO's mode is computed from and records a change with: every state read gives it. */
export interface ModeView {
  company: CompanyRow;
  ceo: AgentRow;
  latestStrategy: ApprovalRow | null;
  modeState: CeoModeState;
  mode: CeoMode;
  modeReason: string;
}

export interface CompanyState extends ModeView {
  connectors: ConnectorRow[];
  activeAgents: AgentRow[];
}

/**
 * A rule's view of the company whatever its team's size (one statement, no agent list): the
 * connectors, the active-agent count, one agent by id and the holder of a name, when asked.
 */
export interface CompanySummaryState extends ModeView {
  connectors: ConnectorRow[];
  activeCount: number;
  /** The agent asked for by id, when it is an active agent of this company. */
  agent: AgentRow | null;
  /** The active agent whose name reads as the one asked for. */
  nameTaken: AgentRow | null;
}

function modeView(
  company: CompanyRow,
  ceo: AgentRow,
  latestStrategy: ApprovalRow | null,
  activeReports: number,
): ModeView {
  const modeState: CeoModeState = { activeReports, latestStrategy: latestStrategy?.status ?? null };
  return {
    company,
    ceo,
    latestStrategy,
    modeState,
    mode: resolveCeoMode(modeState),
    modeReason: explainCeoMode(modeState),
  };
}

/** One statement, whatever the team's size (see CompanySummaryState). */
export async function loadCompanySummary(
  q: StoreQueries,
  companyId: string,
  ask: { agentId?: string | null; name?: string } = {},
): Promise<CompanySummaryState> {
  const s = await q.getCompanySummary(companyId, ask);
  if (!s) throw new NotFoundError(`company ${companyId} not found`);
  if (!s.ceo) throw new NotFoundError(`company ${companyId} has no active CEO`);
  const agent = s.agent && s.agent.companyId === companyId && s.agent.status === "active" ? s.agent : null;
  return {
    ...modeView(s.company, s.ceo, s.latestStrategy, s.activeReports),
    connectors: s.connectors,
    activeCount: s.activeAgents,
    agent,
    nameTaken: s.nameTaken,
  };
}

export async function loadCompanyState(q: StoreQueries, companyId: string): Promise<CompanyState> {
  // One statement: the company, its connectors, active agents and latest strategy.
  const snapshot = await q.getCompanySnapshot(companyId);
  if (!snapshot) throw new NotFoundError(`company ${companyId} not found`);
  return stateOf(snapshot.company, snapshot.connectors, snapshot.activeAgents, snapshot.latestStrategy);
}

function stateOf(
  company: CompanyRow,
  connectors: ConnectorRow[],
  activeAgents: AgentRow[],
  latestStrategy: ApprovalRow | null,
): CompanyState {
  const ceo = activeAgents.find((a) => a.isCeo);
  if (!ceo) throw new NotFoundError(`company ${company.id} has no active CEO`);
  const reports = activeAgents.filter((a) => a.reportsTo === ceo.id).length;
  return { ...modeView(company, ceo, latestStrategy, reports), connectors, activeAgents };
}

/**
 * The mode after a write the caller made and knows exactly (an agent hired, an approval decided
 * or filed), computed without reading it back: the transaction wrote it, nothing else could.
 */
export function modeAfter(
  before: ModeView,
  change: { hired: AgentRow } | { approval: ApprovalRow },
): ModeView {
  if ("hired" in change) {
    const reports =
      before.modeState.activeReports +
      (change.hired.status === "active" && change.hired.reportsTo === before.ceo.id ? 1 : 0);
    return modeView(before.company, before.ceo, before.latestStrategy, reports);
  }
  const a = change.approval;
  const latest = before.latestStrategy;
  // The latest strategy is the last by (created_at, id); a write changes it only when it is that one.
  const isLatest =
    a.type === "approve_ceo_strategy" &&
    (!latest ||
      a.id === latest.id ||
      a.createdAt > latest.createdAt ||
      (a.createdAt === latest.createdAt && a.id > latest.id));
  return modeView(before.company, before.ceo, isLatest ? a : latest, before.modeState.activeReports);
}

/**
 * Records a `mode.changed` activity when the writes made since `before` moved the CEO's mode.
 * Called inside the transaction that made them, so the change is recorded exactly once, whichever
 * path (tool, legacy HTTP, operator decision) caused it. `after`, when the caller computed it
 * (modeAfter), spares reading the state again; `activities` are written with the mode change, in
 * one batch (the write's own activity first).
 */
export async function recordModeChange(
  q: StoreQueries,
  before: ModeView,
  runId: string | null,
  after?: ModeView,
  activities: NewActivity[] = [],
): Promise<ModeView> {
  const state = after ?? (await loadCompanyState(q, before.company.id));
  const batch = [...activities];
  if (state.mode !== before.mode) {
    batch.push({
      companyId: state.company.id,
      agentId: state.ceo.id,
      runId,
      type: "mode.changed",
      data: { from: before.mode, to: state.mode, reason: state.modeReason },
    });
  }
  await q.insertActivities(batch);
  return state;
}
