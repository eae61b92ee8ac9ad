// Usage reports over stored runs: per run (and per model call), per agent, per company. Tokens come
// from the four counters each run stores; cost is computed at read time from the registry's prices
// for the agent's model, so a price correction applies to history without a migration.
import { combineSummaries, findModel, summariseUsage, type Usage, type UsageSummary } from "@cadre/core";
import { NotFoundError } from "@cadre/core";
import type { AgentRow, RunRow, Store } from "@cadre/store";

export interface TurnUsageReport {
  /** Model call number within the run, from 1. */
  turn: number;
  usage: UsageSummary;
}

export interface RunUsageReport {
  runId: string;
  agentId: string;
  agentName: string;
  model: string;
  status: RunRow["status"];
  startedAt: string;
  usage: UsageSummary;
  /** Per model call; present when asked for (it reads the run's events). */
  turns?: TurnUsageReport[];
}

export interface AgentUsageReport {
  agentId: string;
  name: string;
  role: string;
  model: string;
  runs: number;
  usage: UsageSummary;
}

export interface CompanyUsageReport {
  companyId: string;
  name: string;
  usage: UsageSummary;
  agents: AgentUsageReport[];
  runs: RunUsageReport[];
}

function runReport(run: RunRow, agent: AgentRow | undefined): RunUsageReport {
  const model = agent?.model ?? "unknown";
  return {
    runId: run.id,
    agentId: run.agentId,
    agentName: agent?.name ?? "(unknown agent)",
    model,
    status: run.status,
    startedAt: run.startedAt,
    usage: summariseUsage(run.usage, findModel(model)),
  };
}

/** Per model call usage of a run, from its stored `usage` events (one per model call, incremental). */
export async function runTurnUsage(store: Store, run: RunRow, model: string): Promise<TurnUsageReport[]> {
  const info = findModel(model);
  const events = await store.listRunEvents(run.id);
  return events
    .filter((e) => e.type === "usage")
    .map((e, i) => ({ turn: i + 1, usage: summariseUsage((e.data as { usage: Usage }).usage, info) }));
}

export async function runUsageReport(store: Store, runId: string): Promise<RunUsageReport> {
  const run = await store.getRun(runId);
  if (!run) throw new NotFoundError(`run ${runId} not found`);
  const report = runReport(run, await store.getAgent(run.agentId));
  return { ...report, turns: await runTurnUsage(store, run, report.model) };
}

export async function companyUsageReport(store: Store, companyId: string): Promise<CompanyUsageReport> {
  const company = await store.getCompany(companyId);
  if (!company) throw new NotFoundError(`company ${companyId} not found`);
  const [agents, runs] = await Promise.all([store.listAgents(companyId), store.listRuns({ companyId })]);
  const byId = new Map(agents.map((a) => [a.id, a]));
  const runReports = runs.map((r) => runReport(r, byId.get(r.agentId)));
  const agentReports: AgentUsageReport[] = agents.map((a) => {
    const own = runReports.filter((r) => r.agentId === a.id);
    return {
      agentId: a.id,
      name: a.name,
      role: a.role,
      model: a.model,
      runs: own.length,
      usage: combineSummaries(own.map((r) => r.usage)),
    };
  });
  return {
    companyId,
    name: company.name,
    usage: combineSummaries(runReports.map((r) => r.usage)),
    agents: agentReports,
    runs: runReports,
  };
}
