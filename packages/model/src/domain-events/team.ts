// The team's events: a hire, a termination, a model change and a session reset.
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { DEPARTMENTS, HARNESS_KINDS, VIAS } from "../vocabulary.js";
import { Data, Id, Words } from "./fields.js";

export const TEAM_EVENTS = {
  "agent.hired": Data({
    agentId: Id,
    name: Words,
    role: Words,
    department: Nullable(OneOf(DEPARTMENTS)),
    connectorId: Id,
    model: Id,
    via: OneOf(VIAS),
    /** The hiring agent; null when the operator hired. */
    hiredBy: Nullable(Id),
    approvalId: Type.Optional(Id),
  }),
  "agent.terminated": Data({
    agentId: Id,
    name: Words,
    role: Words,
    keysRevoked: Type.Integer({ minimum: 0 }),
    tasksReturned: Type.Array(Data({ taskId: Id, to: Id })),
    wakesCancelled: Type.Integer({ minimum: 0 }),
  }),
  "agent.model_changed": Data({
    agentId: Id,
    name: Words,
    connectorId: Id,
    fromConnectorId: Type.Optional(Id),
    from: Id,
    to: Id,
    /** What the live session did with the switch ("no live session" when none ran). */
    live: Words,
    /** What became of the kept session between wakes (a handoff names the native session it closed). */
    session: Data({
      action: OneOf(["switch", "handoff-then-switch", "none"]),
      reason: Words,
      fromSession: Type.Optional(Id),
      handoffBytes: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  }),
  "agent.session_reset": Data({
    agentId: Id,
    name: Words,
    harness: OneOf(HARNESS_KINDS),
    sessionId: Nullable(Id),
    forced: Type.Optional(Type.Boolean()),
    /** The run that held the session when a forced reset took it. */
    heldBy: Type.Optional(Id),
  }),
};
