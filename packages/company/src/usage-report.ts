// Usage reports over stored runs: per run (and per model call), per agent, per company. Tokens come
// from the four counters each run stores; cost is computed at read time from the registry's prices
// for the agent's model, so a price correction applies to history without a migration.
import { combineSummaries, findModel, summariseUsage, type Usage, type UsageSummary } from "@cadre/core";
import { NotFoundError } from "@cadre/core";
import { Nullable, OneOf, RUN_STATUSES, type Static } from "@cadre/model";
import type { AgentRow, ModelCallRow, RunRow, Store } from "@cadre/store";
import { Type } from "typebox";

const tokens = (description: string) => Type.Integer({ minimum: 0, description });

/** core's UsageSummary, as reports send it (checked against the type below). */
export const UsageSummarySchema = Type.Object(
  {
    input: tokens("Uncached input tokens."),
    output: tokens("Output tokens."),
    cacheRead: tokens("Input tokens read from the prompt cache."),
    cacheWrite: tokens("Input tokens written to the prompt cache."),
    total: tokens("input + output + cacheRead + cacheWrite."),
    cost: Nullable(
      Type.Number({ minimum: 0, description: "USD at the registry's prices; null when unknown." }),
    ),
    hitRate: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "cacheRead / (input + cacheRead + cacheWrite).",
    }),
  },
  { additionalProperties: false },
);
// The schema restates core's type for the documents; the compiler keeps the two the same.
const _sameSummary: [UsageSummary, Static<typeof UsageSummarySchema>] = [
  {} as Static<typeof UsageSummarySchema>,
  {} as UsageSummary,
];

export const TurnUsageReportSchema = Type.Object(
  {
    turn: Type.Integer({ minimum: 1, description: "Model call number within the run, from 1." }),
    usage: UsageSummarySchema,
    model: Type.Optional(
      Type.String({ description: "The model that served the call (as the provider reported it)." }),
    ),
    requestedModel: Type.Optional(
      Type.String({
        description: "Present when the call asked for another model than the one that served it.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type TurnUsageReport = Static<typeof TurnUsageReportSchema>;

export const ToolCallsReportSchema = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: "Tool calls the model made, refused ones included." }),
    refused: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: "The tool the model asked for." }),
          result: Type.String({ description: "What the harness answered the model (its error)." }),
        },
        { additionalProperties: false },
      ),
      { description: "Calls the harness refused without running anything: it has no such tool." },
    ),
  },
  { additionalProperties: false },
);
export type ToolCallsReport = Static<typeof ToolCallsReportSchema>;

export const RunUsageReportSchema = Type.Object(
  {
    runId: Type.String(),
    agentId: Type.String(),
    agentName: Type.String(),
    model: Type.String(),
    status: OneOf(RUN_STATUSES),
    startedAt: Type.String(),
    usage: UsageSummarySchema,
    /** Per model call; present when asked for (it reads the run's events). */
    turns: Type.Optional(Type.Array(TurnUsageReportSchema, { description: "Per model call, in order." })),
    /** The run's tool calls; present with `turns`. */
    toolCalls: Type.Optional(ToolCallsReportSchema),
  },
  { additionalProperties: false },
);
export type RunUsageReport = Static<typeof RunUsageReportSchema>;

export const AgentUsageReportSchema = Type.Object(
  {
    agentId: Type.String(),
    name: Type.String(),
    role: Type.String(),
    model: Type.String(),
    runs: Type.Integer({ minimum: 0 }),
    usage: UsageSummarySchema,
  },
  { additionalProperties: false },
);
export type AgentUsageReport = Static<typeof AgentUsageReportSchema>;

export const CompanyUsageReportSchema = Type.Object(
  {
    companyId: Type.String(),
    name: Type.String(),
    usage: UsageSummarySchema,
    agents: Type.Array(AgentUsageReportSchema),
    runs: Type.Array(RunUsageReportSchema),
  },
  { additionalProperties: false },
);
export type CompanyUsageReport = Static<typeof CompanyUsageReportSchema>;

/** USD of a run's ledger rows: null when any call's price is unknown (never counted as 0). */
function ledgerCost(calls: readonly ModelCallRow[]): number | null {
  let total = 0;
  for (const c of calls) {
    if (c.status !== "settled") continue;
    if (c.costUsd === null) return null;
    total += c.costUsd;
  }
  return total;
}

function runReport(run: RunRow, agent: AgentRow | undefined, calls: readonly ModelCallRow[]): RunUsageReport {
  const model = agent?.model ?? "unknown";
  const usage = summariseUsage(run.usage, findModel(model));
  // Runs metered by the spend ledger (migration 011) are priced per call, at the price of the model
  // that served each call; older runs at the agent's model's registry price.
  if (calls.length > 0) usage.cost = ledgerCost(calls);
  return {
    runId: run.id,
    agentId: run.agentId,
    agentName: agent?.name ?? "(unknown agent)",
    model,
    status: run.status,
    startedAt: run.startedAt,
    usage,
  };
}

/** Per model call usage of a run, from its stored `usage` events (one per model call, incremental). */
export async function runTurnUsage(store: Store, run: RunRow, model: string): Promise<TurnUsageReport[]> {
  const calls = (await store.listModelCalls(run.id)).filter((c) => c.status === "settled");
  if (calls.length > 0)
    return calls.map((c, i) => ({
      turn: i + 1,
      usage: { ...summariseUsage(c.usage), cost: c.costUsd },
      model: c.servedModel ?? c.model,
      ...(c.servedModel !== null && c.servedModel !== c.model ? { requestedModel: c.model } : {}),
    }));
  const info = findModel(model);
  const events = await store.listRunEvents(run.id);
  return events
    .filter((e) => e.type === "usage")
    .map((e, i) => ({ turn: i + 1, usage: summariseUsage((e.data as { usage: Usage }).usage, info) }));
}

/** A run's usage in total with its USD cost (null when a call's price is unknown), without per-call detail. */
export async function runUsageTotal(store: Store, run: RunRow): Promise<UsageSummary> {
  return runReport(run, await store.getAgent(run.agentId), await store.listModelCalls(run.id)).usage;
}

export async function runUsageReport(store: Store, runId: string): Promise<RunUsageReport> {
  const run = await store.getRun(runId);
  if (!run) throw new NotFoundError(`run ${runId} not found`);
  const report = runReport(run, await store.getAgent(run.agentId), await store.listModelCalls(run.id));
  return {
    ...report,
    turns: await runTurnUsage(store, run, report.model),
    toolCalls: toolCallsOf(await store.listRunEvents(run.id)),
  };
}

/**
 * A run's tool calls from its events: each call once by its id (harnesses report a call as a
 * toolcall_end, a tool_use or both), and the calls the harness refused with what it answered.
 */
export function toolCallsOf(events: ReadonlyArray<{ type: string; data: unknown }>): ToolCallsReport {
  const ids = new Set<string>();
  const refused = new Map<string, { name: string; result: string }>();
  for (const { type, data } of events) {
    const e = data as { id?: string; name?: string; refused?: boolean };
    if ((type === "tool_use" || type === "toolcall_end") && typeof e.id === "string") {
      ids.add(e.id);
      if (type === "tool_use" && e.refused === true && !refused.has(e.id))
        refused.set(e.id, { name: e.name ?? "", result: "" });
    }
  }
  // The harness's answer may come before or after the call is marked refused (Claude Code: before).
  for (const { type, data } of events) {
    const e = data as { toolUseId?: string; content?: Array<{ type: string; text?: string }> };
    const call = type === "tool_result" && e.toolUseId !== undefined ? refused.get(e.toolUseId) : undefined;
    if (call && Array.isArray(e.content))
      call.result = e.content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("");
  }
  return { total: ids.size, refused: [...refused.values()] };
}

export async function companyUsageReport(store: Store, companyId: string): Promise<CompanyUsageReport> {
  const company = await store.getCompany(companyId);
  if (!company) throw new NotFoundError(`company ${companyId} not found`);
  const [agents, runs] = await Promise.all([store.listAgents(companyId), store.listRuns({ companyId })]);
  const byId = new Map(agents.map((a) => [a.id, a]));
  const runReports: RunUsageReport[] = [];
  for (const r of runs) runReports.push(runReport(r, byId.get(r.agentId), await store.listModelCalls(r.id)));
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
