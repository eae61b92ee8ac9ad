// Wake requests and schedules: work asked of an agent, and what became of the request.
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { WAKE_TRIGGERS } from "../vocabulary.js";
import { Data, Id, Words } from "./fields.js";

/** A request that left the queue without a run taking it, and why. */
const settled = Data({
  requestId: Id,
  agentId: Id,
  trigger: OneOf(WAKE_TRIGGERS),
  taskId: Nullable(Id),
  note: Nullable(Words),
});

export const WAKE_EVENTS = {
  "wake.requested": Data({
    requestId: Id,
    agentId: Id,
    trigger: OneOf(WAKE_TRIGGERS),
    taskId: Nullable(Id),
    /** Who caused it: an agent id, operator or system. */
    causedBy: Nullable(Id),
    /** What changed, in words. */
    cause: Words,
    approvalId: Type.Optional(Id),
  }),
  "wake.cancelled": settled,
  "wake.dropped": settled,
  "wake.returned": settled,
  "schedule.set": Data({ scheduleId: Id, agentId: Id, schedule: Words, nextDueAt: Words }),
  "schedule.removed": Data({ scheduleId: Id, agentId: Id }),
  "schedule.skipped": Data({
    scheduleId: Id,
    agentId: Id,
    ticks: Type.Integer({ minimum: 0 }),
    reason: Words,
    nextDueAt: Words,
  }),
};
