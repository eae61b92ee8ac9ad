// A run's hold on its tasks ends with the run (OP-1: one run works a task at a time): its end
// releases every task it checked out, in the transaction that records the end.
//
// A wake reason is served or explicitly cancelled, never lost (OP-5). A run that did not finish —
// its process was lost (recovery ends it) or a budget stopped it — gives every request it took back
// to pending, whatever its trigger, so that the next wake of its agent serves it (after the budget
// is raised, for a budget stop); each task it was still working — in progress, still assigned to
// its agent — is also left a `task_resumed` request. Recovery runs once per lost run (of several
// recoverers one wins) and a run's end once, so a request goes back once per run that lost it. A
// reason whose runs were lost MAX_RETURNS times is cancelled instead, with a note saying so, rather
// than retried for ever.
import { isFinishedTask } from "@cadre/model";
import type { RunRow, StoreQueries, WakeRequestRow } from "@cadre/store";
import { requestWakes } from "./requests.js";
import type { WakeIntent } from "./wake-rules.js";

/** How often one wake request goes back to pending before it is cancelled instead. */
export const MAX_RETURNS = 3;

type RunRef = Pick<RunRow, "id" | "companyId" | "agentId">;

async function release(tx: StoreQueries, run: RunRef, reason: string) {
  const released = await tx.releaseTaskCheckouts(run.id);
  for (const taskId of released)
    await tx.insertActivity({
      companyId: run.companyId,
      agentId: run.agentId,
      runId: run.id,
      type: "task.released",
      data: { taskId, runId: run.id, reason },
    });
  return released;
}

/** At a run's own end (its terminal event): its tasks are free again. */
export function releaseRunWork(tx: StoreQueries, run: RunRef, terminal: string): Promise<string[]> {
  return release(tx, run, `the run ended ${terminal}`);
}

export interface GivenBack {
  /** Requests back to pending. */
  returned: WakeRequestRow[];
  /** Requests cancelled instead: their runs were lost MAX_RETURNS times. */
  cancelled: WakeRequestRow[];
  /** Tasks released from the run. */
  released: string[];
}

/**
 * The run did not finish (`why`, e.g. "the process running it stopped"): every request it took goes
 * back to pending (or is cancelled after MAX_RETURNS), its tasks are released, and each task it
 * left in progress gets a `task_resumed` request. Inside the transaction that ends the run.
 */
export async function giveBackRunWork(tx: StoreQueries, run: RunRef, why: string): Promise<GivenBack> {
  const out: GivenBack = { returned: [], cancelled: [], released: [] };
  const note = `run ${run.id} did not finish (${why}); the reason is due again`;
  const givenUp = new Set<string>();
  for (const r of await tx.listWakeRequests({ runId: run.id, status: "taken" })) {
    if (!(await tx.returnWakeRequest(r.id, run.id, note))) continue;
    const back = { ...r, status: "pending" as const, runId: null, note, returns: r.returns + 1 };
    if (back.returns > MAX_RETURNS) {
      const dropNote = `cancelled: ${MAX_RETURNS + 1} runs that took this reason did not finish (the last: ${why})`;
      await tx.settleWakeRequest(r.id, { status: "dropped", note: dropNote });
      await tx.insertActivity({
        companyId: r.companyId,
        agentId: r.agentId,
        runId: run.id,
        type: "wake.cancelled",
        data: { requestId: r.id, agentId: r.agentId, trigger: r.trigger, taskId: r.taskId, note: dropNote },
      });
      if (r.taskId !== null) givenUp.add(r.taskId);
      out.cancelled.push({ ...back, status: "dropped", note: dropNote });
      continue;
    }
    await tx.insertActivity({
      companyId: r.companyId,
      agentId: r.agentId,
      runId: run.id,
      type: "wake.returned",
      data: { requestId: r.id, agentId: r.agentId, trigger: r.trigger, taskId: r.taskId, note },
    });
    out.returned.push(back);
  }
  out.released = await release(tx, run, why);
  const resume: WakeIntent[] = [];
  for (const taskId of out.released) {
    if (givenUp.has(taskId)) continue;
    const task = await tx.getTask(taskId);
    if (!task || isFinishedTask(task.status) || task.assigneeAgentId !== run.agentId) continue;
    // A task it never started is served by the request given back; one it was working is resumed.
    if (task.status !== "in_progress" && out.returned.some((r) => r.taskId === taskId)) continue;
    resume.push({
      agentId: run.agentId,
      trigger: "task_resumed",
      taskId,
      cause: `run ${run.id} stopped before it finished task "${task.title}" (${task.id})`,
    });
  }
  await requestWakes(tx, run.companyId, resume, "system", null);
  return out;
}

/** When recovery ends a lost run: its reasons are due again, its tasks free, the unfinished ones resumed. */
export async function releaseLostRunWork(tx: StoreQueries, run: RunRef): Promise<string[]> {
  return (await giveBackRunWork(tx, run, "the process running it stopped")).released;
}
