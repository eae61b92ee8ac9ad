// A hard stop cancels the queued wakes of the budget that stopped (issue 16 #3): the pending wake
// requests of the company (a company budget) or of the agent (an agent's own) are dropped with the
// reason `budget`, each with a `wake.cancelled` activity row, in the transaction given (the run's
// final one, or the due-work pass that found the budget exhausted). Queued jobs of the PostgreSQL
// queue are cancelled by the worker that saw the stop (server/cluster/worker.ts).
import type { StoreQueries, WakeRequestRow } from "@cadre/store";

export interface QueuedWakesScope {
  scope: "company" | "agent";
  companyId: string;
  agentId: string | null;
  /** Why: the budget, its use and how to raise it. */
  message: string;
}

/** The note a cancelled wake request carries: `budget: ` and the refusal. */
export function budgetNote(message: string): string {
  return `budget: ${message}`;
}

export async function cancelQueuedWakes(
  tx: StoreQueries,
  what: QueuedWakesScope,
  runId: string | null = null,
): Promise<WakeRequestRow[]> {
  const pending =
    what.scope === "agent" && what.agentId !== null
      ? await tx.listWakeRequests({ agentId: what.agentId, status: "pending" })
      : await tx.listWakeRequests({ companyId: what.companyId, status: "pending" });
  const note = budgetNote(what.message);
  const cancelled: WakeRequestRow[] = [];
  for (const r of pending) {
    if (!(await tx.settleWakeRequest(r.id, { status: "dropped", note }))) continue;
    await tx.insertActivity({
      companyId: r.companyId,
      agentId: r.agentId,
      runId,
      type: "wake.cancelled",
      data: {
        requestId: r.id,
        agentId: r.agentId,
        trigger: r.trigger,
        taskId: r.taskId,
        reason: "budget",
        budget: { scope: what.scope, agentId: what.agentId },
        message: what.message,
      },
    });
    cancelled.push({ ...r, status: "dropped", note });
  }
  return cancelled;
}
