// The company as it stood at a moment of a recorded run (its start, its end), rebuilt from what the
// store keeps: rows created before that moment, an agent's termination and an approval's decisions
// from their dated history. Whatever the run itself created is left out of its start.
import { resolveCeoMode } from "@cadre/company";
import type { AgentStatus, ApprovalStatus, CeoMode } from "@cadre/model";
import type { AgentRow, ApprovalRow, ConnectorRow, Store } from "@cadre/store";

export interface StateAt {
  connectors: ConnectorRow[];
  /** The CEO's reports that existed then, with their status then. */
  team: (AgentRow & { statusThen: AgentStatus })[];
  /** Approvals filed by then, in filing order, with their status and note then. */
  approvals: (ApprovalRow & { statusThen: ApprovalStatus; noteThen: string | null })[];
  mode: CeoMode;
}

/** `at` is inclusive; `excludeRun` leaves out what that run created (its start is before its own effects). */
export async function stateAt(
  store: Store,
  companyId: string,
  at: string,
  excludeRun?: string,
): Promise<StateAt> {
  const [connectors, agents, approvals, activity] = await Promise.all([
    store.listConnectors(companyId),
    store.listAgents(companyId),
    store.listApprovals(companyId),
    store.listActivity(companyId),
  ]);
  const byRun = new Set(
    activity
      .filter(
        (a) =>
          excludeRun !== undefined &&
          a.runId === excludeRun &&
          (a.type === "agent.hired" || a.type === "approval.filed"),
      )
      .map((a) => (a.data as { agentId?: string; approvalId?: string } | null) ?? {})
      .flatMap((d) => [d.agentId, d.approvalId].filter((x): x is string => typeof x === "string")),
  );
  const terminatedAt = new Map(
    activity
      .filter((a) => a.type === "agent.terminated")
      .map((a) => [(a.data as { agentId?: string } | null)?.agentId ?? a.agentId ?? "", a.at]),
  );
  const team = agents
    .filter((a) => !a.isCeo && a.createdAt <= at && !byRun.has(a.id))
    .map((a) => {
      const ended = terminatedAt.get(a.id);
      return { ...a, statusThen: (ended !== undefined && ended > at ? "active" : a.status) as AgentStatus };
    });
  const filed = approvals
    .filter((a) => a.createdAt <= at && !byRun.has(a.id))
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  const withStatus = [];
  for (const a of filed) {
    const events = (await store.listApprovalEvents(a.id)).filter((e) => e.at <= at);
    const last = events[events.length - 1];
    withStatus.push({ ...a, statusThen: last?.toStatus ?? "pending", noteThen: last?.note ?? null });
  }
  const strategies = withStatus.filter((a) => a.type === "approve_ceo_strategy");
  return {
    connectors: connectors.filter((c) => c.createdAt <= at),
    team,
    approvals: withStatus,
    mode: resolveCeoMode({
      activeReports: team.filter((m) => m.statusThen === "active").length,
      latestStrategy: strategies[strategies.length - 1]?.statusThen ?? null,
    }),
  };
}
