// The company's own events: created, its CEO's mode, approvals, connectors and the thread.
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { APPROVAL_STATUSES, APPROVAL_TYPES, CEO_MODES, CONNECTOR_KINDS, VIAS } from "../vocabulary.js";
import { Data, Id, Words } from "./fields.js";

export const COMPANY_EVENTS = {
  "company.created": Data({
    name: Words,
    ceoAgentId: Id,
    connectors: Type.Array(Id),
    /** Set when an evaluation scenario seeded the company. */
    scenario: Type.Optional(Id),
  }),
  "mode.changed": Data({ from: OneOf(CEO_MODES), to: OneOf(CEO_MODES), reason: Words }),
  "approval.filed": Data({ approvalId: Id, type: OneOf(APPROVAL_TYPES), title: Words, via: OneOf(VIAS) }),
  "approval.decided": Data({
    approvalId: Id,
    status: OneOf(APPROVAL_STATUSES),
    note: Nullable(Words),
  }),
  "connector.added": Data({
    connectorId: Id,
    kind: OneOf(CONNECTOR_KINDS),
    enabledModels: Type.Array(Id),
    /** The models the endpoint said it serves, when it was asked, each with what it offers for it. */
    served: Type.Optional(Type.Array(Data({ id: Id, fingerprint: Nullable(Id) }))),
  }),
  "connector.removed": Data({ connectorId: Id, kind: OneOf(CONNECTOR_KINDS) }),
  /** The operator's thread with the CEO: `from` is "operator" or the CEO's agent id. */
  "message.posted": Data({ from: Id, text: Words, operatorName: Type.Optional(Words) }),
};
