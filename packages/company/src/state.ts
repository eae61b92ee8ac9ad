// Reads everything a decision about a company needs, in one place, from one StoreQueries (so a
// caller inside a transaction sees its own writes).
import type { CeoMode } from "@cadre/model";
import { NotFoundError } from "@cadre/core";
import type { AgentRow, ApprovalRow, CompanyRow, ConnectorRow, StoreQueries } from "@cadre/store";
import { type CeoModeState, explainCeoMode, resolveCeoMode } from "./modes.js";

export interface CompanyState {
  company: CompanyRow;
  connectors: ConnectorRow[];
  activeAgents: AgentRow[];
  ceo: AgentRow;
  latestStrategy: ApprovalRow | null;
  modeState: CeoModeState;
  mode: CeoMode;
  modeReason: string;
}

export async function loadCompanyState(q: StoreQueries, companyId: string): Promise<CompanyState> {
  const company = await q.getCompany(companyId);
  if (!company) throw new NotFoundError(`company ${companyId} not found`);
  const [connectors, activeAgents, strategies] = await Promise.all([
    q.listConnectors(companyId),
    q.listAgents(companyId, { status: "active" }),
    q.listApprovals(companyId, { type: "approve_ceo_strategy" }),
  ]);
  const ceo = activeAgents.find((a) => a.isCeo);
  if (!ceo) throw new NotFoundError(`company ${companyId} has no active CEO`);
  const latestStrategy = strategies.at(-1) ?? null;
  const modeState: CeoModeState = {
    activeReports: activeAgents.filter((a) => a.reportsTo === ceo.id).length,
    latestStrategy: latestStrategy?.status ?? null,
  };
  return {
    company,
    connectors,
    activeAgents,
    ceo,
    latestStrategy,
    modeState,
    mode: resolveCeoMode(modeState),
    modeReason: explainCeoMode(modeState),
  };
}

/**
 * Records a `mode.changed` activity when the writes made since `before` moved the CEO's mode.
 * Called inside the transaction that made them, so the change is recorded exactly once, whichever
 * path (tool, legacy HTTP, operator decision) caused it.
 */
export async function recordModeChange(
  q: StoreQueries,
  before: CompanyState,
  runId: string | null,
): Promise<CompanyState> {
  const after = await loadCompanyState(q, before.company.id);
  if (after.mode !== before.mode) {
    await q.insertActivity({
      companyId: after.company.id,
      agentId: after.ceo.id,
      runId,
      type: "mode.changed",
      data: { from: before.mode, to: after.mode, reason: after.modeReason },
    });
  }
  return after;
}
