// Why a run happened: the chain of causes from the run back to an operator's action or a schedule,
// read from what was recorded when each cause happened — the wake requests the run took, the
// activity that says which run (if any) made each of them, the audit log's record of who started
// a run nobody's work asked for. Decided from records, in code; nothing here is guessed.
import { NotFoundError } from "@cadre/core";
import type { ActivityRow, AgentRow, RunRow, StoreQueries } from "@cadre/store";

export interface WhyActor {
  type: "agent" | "operator" | "system";
  /** The agent's or operator's name; "system" for code (a schedule, recovery). */
  name: string;
}

export interface WhyReason {
  trigger: string;
  /** What changed, in words. */
  cause: string;
  by: WhyActor;
  taskId: string | null;
  approvalId: string | null;
  /** The wake request this reason was; null for a run started directly (a wake nobody's work asked for). */
  requestId: string | null;
  /** The run in which the cause happened (explained in turn, in `runs`); null when a person or a schedule caused it. */
  fromRunId: string | null;
}

/** One run of the chain and the reasons it was woken. */
export interface RunWhyNode {
  runId: string;
  agentId: string;
  agentName: string;
  trigger: string;
  status: string;
  startedAt: string;
  reasons: WhyReason[];
}

/** The run asked about and every run its causes go back through (each once), the asked one first. */
export interface RunWhy {
  runId: string;
  runs: RunWhyNode[];
}

const MAX_DEPTH = 25;

interface Lookup {
  q: StoreQueries;
  agents: Map<string, AgentRow>;
  requested: Map<string, ActivityRow>;
  seen: Set<string>;
  out: RunWhyNode[];
}

function actorOf(l: Lookup, key: string): WhyActor {
  const agent = l.agents.get(key);
  if (agent) return { type: "agent", name: agent.name };
  if (key === "system") return { type: "system", name: "system" };
  return { type: "operator", name: key };
}

/** A run no request explains: who started it, from the audit log (an operator's wake, a CLI's, the system's). */
async function directReason(l: Lookup, run: RunRow): Promise<WhyReason> {
  const started = (await l.q.listAudit({ companyId: run.companyId, target: `run ${run.id}` })).find(
    (a) => a.action === "run.started",
  );
  const by: WhyActor = started
    ? { type: started.actorType, name: started.actorName }
    : { type: "system", name: "system" };
  const cause =
    by.type === "operator"
      ? `${by.name} woke ${l.agents.get(run.agentId)?.name ?? run.agentId} (${run.trigger})`
      : `woken with trigger ${run.trigger}${by.type === "agent" ? ` by ${by.name}` : ""}`;
  return {
    trigger: run.trigger,
    cause,
    by,
    taskId: null,
    approvalId: null,
    requestId: null,
    fromRunId: null,
  };
}

async function explain(l: Lookup, run: RunRow, depth: number): Promise<void> {
  l.seen.add(run.id);
  const node: RunWhyNode = {
    runId: run.id,
    agentId: run.agentId,
    agentName: l.agents.get(run.agentId)?.name ?? run.agentId,
    trigger: run.trigger,
    status: run.status,
    startedAt: run.startedAt,
    reasons: [],
  };
  l.out.push(node);
  const reasons = node.reasons;
  const requests = await l.q.listWakeRequests({ runId: run.id });
  for (const r of requests) {
    const activity = l.requested.get(r.id);
    const data = (activity?.data ?? {}) as { approvalId?: string };
    const causeRunId = activity?.runId ?? null;
    const causeRun = causeRunId !== null ? await l.q.getRun(causeRunId) : undefined;
    if (causeRun && depth < MAX_DEPTH && !l.seen.has(causeRun.id)) await explain(l, causeRun, depth + 1);
    reasons.push({
      trigger: r.trigger,
      cause: r.cause,
      by: actorOf(l, r.causedBy),
      taskId: r.taskId,
      approvalId: data.approvalId ?? null,
      requestId: r.id,
      fromRunId: causeRun ? causeRun.id : null,
    });
  }
  if (reasons.length === 0) reasons.push(await directReason(l, run));
}

/** Why the run happened, back to its origins (an operator's action, a schedule, the system). */
export async function whyRun(q: StoreQueries, runId: string): Promise<RunWhy> {
  const run = await q.getRun(runId);
  if (!run) throw new NotFoundError(`run ${runId} not found`);
  const [agents, requested] = await Promise.all([
    q.listAgents(run.companyId),
    q.listActivity(run.companyId, { type: "wake.requested" }),
  ]);
  const l: Lookup = {
    q,
    agents: new Map(agents.map((a) => [a.id, a])),
    requested: new Map(
      requested.map((a) => [String((a.data as { requestId?: unknown }).requestId ?? ""), a] as const),
    ),
    seen: new Set(),
    out: [],
  };
  await explain(l, run, 0);
  return { runId: run.id, runs: l.out };
}

/** The chain as lines, each cause indented under what it caused ("←" reads "because of"). */
export function whyText(why: RunWhy): string[] {
  const byId = new Map(why.runs.map((n) => [n.runId, n]));
  const shown = new Set<string>();
  const root = byId.get(why.runId);
  return root ? nodeText(root, byId, shown, "") : [];
}

function nodeText(
  node: RunWhyNode,
  byId: Map<string, RunWhyNode>,
  shown: Set<string>,
  indent: string,
): string[] {
  shown.add(node.runId);
  const lines = [
    `${indent}run ${node.runId}: ${node.agentName} woke (${node.trigger}) at ${node.startedAt}, ${node.status}`,
  ];
  for (const r of node.reasons) {
    const refs = [r.taskId ? `task ${r.taskId}` : "", r.approvalId ? `approval ${r.approvalId}` : ""]
      .filter(Boolean)
      .join(", ");
    const by =
      r.by.type === "system" ? "the system" : r.by.type === "agent" ? r.by.name : `operator ${r.by.name}`;
    lines.push(
      `${indent}  ← ${r.cause}${refs ? ` [${refs}]` : ""} — by ${by}${r.fromRunId ? ` in run ${r.fromRunId}` : ""}`,
    );
    const from = r.fromRunId ? byId.get(r.fromRunId) : undefined;
    if (from && !shown.has(from.runId)) lines.push(...nodeText(from, byId, shown, `${indent}    `));
  }
  return lines;
}
