// Which of an agent's pending wake requests a wake takes (OP-1), decided in code when the wake
// starts, inside the transaction that inserts its run: every pending request of the agent whose
// reason still holds (coalescing: one wake for all of them), each task it names checked out for
// the run. A request whose reason went away is dropped — the task finished (a finished task wakes
// nobody) or went to someone else — and one whose task another run holds waits for that run to end.
import { isFinishedTask, WAKE_TRIGGERS, type WakeTrigger } from "@cadre/model";
import type { Store, StoreQueries, TaskRow, WakeRequestRow } from "@cadre/store";

export type RequestFate =
  { fate: "take"; checkout: string | null } | { fate: "drop"; note: string } | { fate: "wait"; note: string };

/** Triggers that are about a task the woken agent works (the task is checked out for its run). */
const WORKS_TASK: ReadonlySet<WakeTrigger> = new Set([
  "task_assigned",
  "task_commented",
  "task_unblocked",
  "task_resumed",
]);

/** What becomes of one pending request when `agentId` wakes now (a pure decision). */
export function fateOf(
  request: WakeRequestRow,
  task: TaskRow | undefined,
  runId: string | null,
): RequestFate {
  if (request.taskId === null) return { fate: "take", checkout: null };
  if (!task) return { fate: "drop", note: "the task no longer exists" };
  // A task back with its creator is about holding it (to work, or to hand on): once it is finished
  // or handed on, that reason went away; the wake does not check it out (a handing-on needs none).
  if (request.trigger === "task_unassigned") {
    if (isFinishedTask(task.status))
      return { fate: "drop", note: `the task is ${task.status}; a finished task wakes nobody` };
    if (task.assigneeAgentId !== request.agentId)
      return { fate: "drop", note: "the task was assigned to someone else" };
    return { fate: "take", checkout: null };
  }
  if (!WORKS_TASK.has(request.trigger)) return { fate: "take", checkout: null };
  if (isFinishedTask(task.status))
    return { fate: "drop", note: `the task is ${task.status}; a finished task wakes nobody` };
  if (task.assigneeAgentId !== request.agentId)
    return { fate: "drop", note: "the task was assigned to someone else" };
  if (task.checkoutRunId !== null && task.checkoutRunId !== runId)
    return { fate: "wait", note: `run ${task.checkoutRunId} is working on the task` };
  return { fate: "take", checkout: task.id };
}

async function tasksOf(
  q: StoreQueries,
  requests: readonly WakeRequestRow[],
): Promise<Map<string, TaskRow | undefined>> {
  const out = new Map<string, TaskRow | undefined>();
  for (const r of requests)
    if (r.taskId !== null && !out.has(r.taskId)) out.set(r.taskId, await q.getTask(r.taskId));
  return out;
}

/** The trigger a wake with these requests is named after: the first in precedence order. */
export function primaryTrigger(
  requests: readonly Pick<WakeRequestRow, "trigger">[],
): WakeTrigger | undefined {
  return WAKE_TRIGGERS.find((t) => requests.some((r) => r.trigger === t));
}

export interface DuePlan {
  take: WakeRequestRow[];
  checkouts: string[];
}

/**
 * Work the agent delegated that a run is doing right now (open, checked out), or that is about to
 * start (its assignee has a pending wake for it): more results are on their way, so a wake for
 * results alone waits for them — the creator is woken once for all of them, whatever order the
 * workers take the wakes in. Work nobody is to be woken for (blocked, unassigned) does not hold it.
 */
async function resultsComing(
  q: StoreQueries,
  companyId: string,
  agentId: string,
  runId: string | null,
): Promise<boolean> {
  const delegated = (
    await q.listTasks(companyId, { creatorAgentId: agentId, statuses: ["todo", "in_progress", "blocked"] })
  ).filter((t) => t.assigneeAgentId !== null && t.assigneeAgentId !== agentId);
  if (delegated.some((t) => t.checkoutRunId !== null && t.checkoutRunId !== runId)) return true;
  if (delegated.length === 0) return false;
  const open = new Map(delegated.map((t) => [t.id, t.assigneeAgentId]));
  const pending = await q.listWakeRequests({ companyId, status: "pending" });
  return pending.some(
    (r) => r.trigger !== "task_done" && r.taskId !== null && open.get(r.taskId) === r.agentId,
  );
}

/** The requests a wake of the agent would take now (read only). */
export async function planDueWork(q: StoreQueries, agentId: string, runId: string | null): Promise<DuePlan> {
  const pending = await q.listWakeRequests({ agentId, status: "pending" });
  const tasks = await tasksOf(q, pending);
  const plan: DuePlan = { take: [], checkouts: [] };
  const results: WakeRequestRow[] = [];
  for (const r of pending) {
    const f = fateOf(r, r.taskId === null ? undefined : tasks.get(r.taskId), runId);
    if (f.fate !== "take") continue;
    if (r.trigger === "task_done") {
      results.push(r);
      continue;
    }
    plan.take.push(r);
    if (f.checkout !== null && !plan.checkouts.includes(f.checkout)) plan.checkouts.push(f.checkout);
  }
  // Results join any other reason to wake; alone, they wait while delegated work is still running.
  const companyId = pending[0]?.companyId;
  if (
    results.length > 0 &&
    (plan.take.length > 0 || !companyId || !(await resultsComing(q, companyId, agentId, runId)))
  )
    plan.take.push(...results);
  plan.take.sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
  );
  return plan;
}

/**
 * Takes the plan for the run (inside the transaction that inserted it): checks out its tasks and
 * marks its requests taken. A task another run checked out meanwhile leaves its requests pending.
 */
export async function takeDueWork(
  tx: StoreQueries,
  plan: DuePlan,
  run: { id: string; companyId: string; agentId: string },
): Promise<WakeRequestRow[]> {
  const held = new Set<string>();
  for (const taskId of plan.checkouts) {
    if (!(await tx.checkoutTask(taskId, run.id))) {
      held.add(taskId);
      continue;
    }
    await tx.insertActivity({
      companyId: run.companyId,
      agentId: run.agentId,
      runId: run.id,
      type: "task.checked_out",
      data: { taskId, runId: run.id },
    });
  }
  const taken: WakeRequestRow[] = [];
  for (const r of plan.take) {
    if (r.taskId !== null && held.has(r.taskId)) continue;
    if (await tx.settleWakeRequest(r.id, { status: "taken", runId: run.id }))
      taken.push({ ...r, status: "taken", runId: run.id });
  }
  return taken;
}

/**
 * Drops the agent's pending requests whose reason went away (finished task, reassigned), each with
 * an activity saying why; returns how many remain pending. One transaction.
 */
export function dropStaleRequests(store: Store, agentId: string): Promise<number> {
  return store.transaction(async (tx) => {
    const pending = await tx.listWakeRequests({ agentId, status: "pending" });
    const tasks = await tasksOf(tx, pending);
    let left = 0;
    for (const r of pending) {
      const f = fateOf(r, r.taskId === null ? undefined : tasks.get(r.taskId), null);
      if (f.fate !== "drop") {
        left++;
        continue;
      }
      if (await tx.settleWakeRequest(r.id, { status: "dropped", note: f.note }))
        await tx.insertActivity({
          companyId: r.companyId,
          agentId,
          runId: null,
          type: "wake.dropped",
          data: { requestId: r.id, agentId, trigger: r.trigger, taskId: r.taskId, note: f.note },
        });
    }
    return left;
  });
}
