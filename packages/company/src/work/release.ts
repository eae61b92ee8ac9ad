// A run's hold on its tasks ends with the run (OP-1: one run works a task at a time): its end
// releases every task it checked out, in the transaction that records the end. A run that recovery
// ends (its process is gone) releases them too, and each task it was still working — open, still
// assigned to its agent — is left a `task_resumed` request, so the next wake continues it. Recovery
// runs once per lost run (of several recoverers one wins), so that is exactly one request per task.
import { isFinishedTask } from "@cadre/model";
import type { RunRow, StoreQueries } from "@cadre/store";
import { requestWakes } from "./requests.js";
import type { WakeIntent } from "./wake-rules.js";

async function release(tx: StoreQueries, run: Pick<RunRow, "id" | "companyId" | "agentId">, reason: string) {
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
export function releaseRunWork(
  tx: StoreQueries,
  run: Pick<RunRow, "id" | "companyId" | "agentId">,
  terminal: string,
): Promise<string[]> {
  return release(tx, run, `the run ended ${terminal}`);
}

/** When recovery ends a lost run: its tasks are free again, and the unfinished ones are to be resumed. */
export async function releaseLostRunWork(
  tx: StoreQueries,
  run: Pick<RunRow, "id" | "companyId" | "agentId">,
): Promise<string[]> {
  const released = await release(tx, run, "the process running it stopped");
  const resume: WakeIntent[] = [];
  for (const taskId of released) {
    const task = await tx.getTask(taskId);
    if (!task || isFinishedTask(task.status) || task.assigneeAgentId !== run.agentId) continue;
    resume.push({
      agentId: run.agentId,
      trigger: "task_resumed",
      taskId,
      cause: `run ${run.id} stopped before it finished task "${task.title}" (${task.id})`,
    });
  }
  await requestWakes(tx, run.companyId, resume, "system", null);
  return released;
}
