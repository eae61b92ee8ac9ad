// The Tasks view's board: the company's tasks in one column per status, in the order they were
// created, with the names of who works each and who asked for it — and, for the run view, what a
// task tool call did, read from its result.
import { TASK_STATUSES, type TaskStatus } from "@cadre/model";
import type { Agent, Task } from "../api/types.js";

export interface BoardCard {
  task: Task;
  assignee: string;
  creator: string;
  /** Who handed the deliverable in, as recorded with it; null without one, or when not recorded. */
  deliverableBy: string | null;
  /** Blockers not finished yet. */
  waitingFor: string[];
}

export interface BoardColumn {
  status: TaskStatus;
  title: string;
  cards: BoardCard[];
}

const TITLES: Record<TaskStatus, string> = {
  todo: "To do",
  in_progress: "In progress",
  blocked: "Blocked",
  done: "Done",
  cancelled: "Cancelled",
};

export function taskBoard(tasks: readonly Task[], agents: readonly Agent[]): BoardColumn[] {
  const name = (id: string | null) =>
    id === null ? "nobody" : (agents.find((a) => a.id === id)?.name ?? id);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return TASK_STATUSES.map((status) => ({
    status,
    title: TITLES[status],
    cards: tasks
      .filter((t) => t.status === status)
      .map((task) => ({
        task,
        assignee: name(task.assigneeAgentId),
        creator: task.creator === "operator" ? "the operator" : name(task.creator),
        // As written: a reassigned task's draft stays its writer's, not the new assignee's.
        deliverableBy: !task.deliverableBy
          ? null
          : task.deliverableBy === "operator"
            ? "the operator"
            : name(task.deliverableBy),
        waitingFor: task.blockers.filter((b) => {
          const blocker = byId.get(b);
          return !blocker || (blocker.status !== "done" && blocker.status !== "cancelled");
        }),
      })),
  }));
}

/**
 * What a task tool call did, from its result ("task_… → done, CTO; wakes CEO"), or undefined. Told
 * by the result's shape — a task change answers with its task id, a task list with the two lists —
 * so the dashboard restates no list of the company's tool names.
 */
export function taskToolSummary(result: string | undefined): string | undefined {
  if (!result) return undefined;
  try {
    const r = JSON.parse(result) as {
      taskId?: string;
      status?: string;
      assignee?: string | null;
      wakes?: string[];
      assigned?: unknown[];
      created?: unknown[];
    };
    if (Array.isArray(r.assigned) && Array.isArray(r.created))
      return `${r.assigned.length} task(s) assigned, ${r.created.length} created`;
    if (!r.taskId) return undefined;
    return `${r.taskId} → ${(r.status ?? "").replace("_", " ")}, ${r.assignee ?? "nobody"}${r.wakes?.length ? `; wakes ${r.wakes.join(", ")}` : ""}`;
  } catch {
    return undefined;
  }
}
