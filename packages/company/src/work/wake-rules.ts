// Who is woken when a task changes, with which trigger (OP-1) — decided here, in code, from the
// change and who made it; the model is never asked. The rules:
//   - an assignment wakes the assignee (task_assigned), unless the task cannot be started yet
//     (open blockers: finishing the last of them wakes it instead);
//   - an operator's comment wakes the assignee (task_commented); an agent's comment wakes nobody;
//   - a task done wakes its creator (task_done) and the assignee of every task it was the last
//     open blocker of (task_unblocked);
//   - a cancelled task, and any change to a finished task, wakes nobody;
//   - nobody is ever woken by their own action.
// Several reasons for one agent coalesce: a wake takes every request of its agent that is pending,
// and a wake for results alone waits while delegated work is still being done (due.ts), so the
// creator is woken once for the results that arrive together.
import { isFinishedTask, type WakeTrigger } from "@cadre/model";
import type { TaskRow } from "@cadre/store";

export interface WakeIntent {
  agentId: string;
  trigger: WakeTrigger;
  taskId: string | null;
  /** What changed, in words (recorded with the request). */
  cause: string;
  /** The approval whose decision this is (recorded with the request's activity: a run's why names it). */
  approvalId?: string;
}

export type TaskChange =
  /** The task is now assigned to `task.assigneeAgentId` (a new task, or a reassignment). */
  | { kind: "assigned"; task: TaskRow; openBlockers: number }
  | { kind: "commented"; task: TaskRow; byOperator: boolean }
  /** The task just moved to done or cancelled; `unblocked`: open tasks it was the last open blocker of. */
  | { kind: "finished"; task: TaskRow; unblocked: readonly TaskRow[] }
  /** Anything else: a status that does not finish it, a deliverable, a title. */
  | { kind: "updated"; task: TaskRow };

/** The actor of a change: an agent id, or "operator" / "system". */
export type ChangeActor = string;

const quote = (task: TaskRow) => `"${task.title}" (${task.id})`;

function intents(change: TaskChange): WakeIntent[] {
  const { task } = change;
  switch (change.kind) {
    case "assigned":
      if (isFinishedTask(task.status) || task.assigneeAgentId === null || change.openBlockers > 0) return [];
      return [
        {
          agentId: task.assigneeAgentId,
          trigger: "task_assigned",
          taskId: task.id,
          cause: `task ${quote(task)} was assigned to you`,
        },
      ];
    case "commented":
      if (isFinishedTask(task.status) || task.assigneeAgentId === null || !change.byOperator) return [];
      return [
        {
          agentId: task.assigneeAgentId,
          trigger: "task_commented",
          taskId: task.id,
          cause: `the operator commented on task ${quote(task)}`,
        },
      ];
    case "finished": {
      if (task.status !== "done") return [];
      const out: WakeIntent[] = [];
      if (task.creatorAgentId !== null)
        out.push({
          agentId: task.creatorAgentId,
          trigger: "task_done",
          taskId: task.id,
          cause: `task ${quote(task)} is done`,
        });
      for (const t of change.unblocked)
        if (t.assigneeAgentId !== null && !isFinishedTask(t.status))
          out.push({
            agentId: t.assigneeAgentId,
            trigger: "task_unblocked",
            taskId: t.id,
            cause: `task ${quote(t)} is no longer blocked: ${quote(task)} is done`,
          });
      return out;
    }
    case "updated":
      return [];
  }
}

/** The wakes a change causes; never one of the actor itself, never two alike. */
export function wakesFor(change: TaskChange, actor: ChangeActor): WakeIntent[] {
  const seen = new Set<string>();
  return intents(change).filter((w) => {
    const key = `${w.agentId}\n${w.trigger}\n${w.taskId ?? ""}`;
    if (w.agentId === actor || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
