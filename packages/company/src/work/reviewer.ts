// Who reviews a task handed in, decided in code: its creator, when that is an active agent other
// than its assignee; otherwise — created by the operator, by its own assignee, by an agent since
// gone, or escalated past the company's bound on review rounds — the operator.
import type { DomainEventType } from "@cadre/model";
import type { StoreQueries, TaskRow } from "@cadre/store";
import { activeAgentOf, type TaskState } from "./task-state.js";

export const REVIEW_ACTIVITY = "task.reviewed" satisfies DomainEventType;
export const ESCALATED_ACTIVITY = "task.review_escalated" satisfies DomainEventType;

export interface Reviewer {
  /** The reviewing agent, or null for the operator. */
  agentId: string | null;
  name: string;
}

async function taskActivity(tx: StoreQueries, state: TaskState, type: DomainEventType, taskId: string) {
  return (await tx.listActivity(state.company.id, { type })).filter(
    (a) => field(a.data, "taskId") === taskId,
  );
}

function field(data: unknown, key: string): unknown {
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}

/** How many times the task was sent back with changes so far. */
export async function changeRounds(tx: StoreQueries, state: TaskState, taskId: string): Promise<number> {
  return (await taskActivity(tx, state, REVIEW_ACTIVITY, taskId)).filter(
    (a) => field(a.data, "decision") === "request_changes",
  ).length;
}

export async function isEscalated(tx: StoreQueries, state: TaskState, taskId: string): Promise<boolean> {
  return (await taskActivity(tx, state, ESCALATED_ACTIVITY, taskId)).length > 0;
}

export async function reviewerOf(tx: StoreQueries, state: TaskState, task: TaskRow): Promise<Reviewer> {
  const operator: Reviewer = { agentId: null, name: "the operator" };
  if (task.creatorAgentId === null || task.creatorAgentId === task.assigneeAgentId) return operator;
  const creator = await activeAgentOf(tx, state, task.creatorAgentId);
  if (!creator || (await isEscalated(tx, state, task.id))) return operator;
  return { agentId: creator.id, name: creator.name };
}
