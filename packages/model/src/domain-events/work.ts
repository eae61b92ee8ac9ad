// The work's events: a task's life (created, assigned, changed, reviewed, held by a run).
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { TASK_STATUSES, VIAS } from "../vocabulary.js";
import { Actor, Data, Id, Words } from "./fields.js";

const Status = OneOf(TASK_STATUSES);
/** Every change a company member made to a task names the task, who made it and through what. */
const change = { taskId: Id, by: Actor, via: OneOf(VIAS) };

export const WORK_EVENTS = {
  "task.created": Data({
    ...change,
    title: Words,
    assigneeAgentId: Nullable(Id),
    creatorAgentId: Nullable(Id),
    blockers: Type.Array(Id),
    strategyId: Nullable(Id),
    status: Status,
  }),
  "task.assigned": Data({
    ...change,
    from: Nullable(Id),
    to: Id,
    /** Set when the system reassigned it (its assignee was terminated). */
    reason: Type.Optional(Words),
  }),
  "task.updated": Data({
    ...change,
    from: Status,
    status: Status,
    /** Whether a deliverable was written with the change. */
    deliverable: Type.Boolean(),
    files: Type.Optional(Type.Array(Words)),
  }),
  "task.commented": Data({ ...change, commentId: Id, authorAgentId: Nullable(Id) }),
  "task.reviewed": Data({
    ...change,
    decision: OneOf(["accept", "request_changes"]),
    from: Status,
    status: Status,
    /** The round of changes asked for (request_changes only). */
    round: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
  /** Past the bound of review rounds: the task stays handed in and the operator decides. */
  "task.review_escalated": Data({
    taskId: Id,
    by: Actor,
    rounds: Type.Integer({ minimum: 0 }),
    bound: Type.Integer({ minimum: 0 }),
  }),
  "task.checked_out": Data({ taskId: Id, runId: Nullable(Id) }),
  "task.released": Data({ taskId: Id, runId: Id, reason: Words }),
};
