// An approval and one status change of it (its history): the store's records and, the same fields,
// the API's views (server views add who decided it and what each decision does to the CEO's mode).
import type { Static } from "typebox";
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { APPROVAL_STATUSES, APPROVAL_TYPES, VIAS } from "../vocabulary.js";
import { Closed, Id, Time } from "./fields.js";

export const ApprovalRowSchema = Closed({
  id: Id(),
  companyId: Id(),
  type: OneOf(APPROVAL_TYPES),
  title: Type.String(),
  payload: Type.String({ description: "The filed text (strategy or plan)." }),
  status: OneOf(APPROVAL_STATUSES),
  filedByAgentId: Nullable(Id()),
  via: OneOf(VIAS),
  decisionNote: Nullable(Type.String()),
  createdAt: Time(),
  decidedAt: Nullable(Time()),
});
export type ApprovalRow = Static<typeof ApprovalRowSchema>;

/** One status change of an approval; `fromStatus` is null for the filing itself. */
export const ApprovalEventRowSchema = Closed({
  id: Type.Integer(),
  approvalId: Id(),
  fromStatus: Nullable(OneOf(APPROVAL_STATUSES)),
  toStatus: OneOf(APPROVAL_STATUSES),
  note: Nullable(Type.String()),
  actor: Type.String(),
  at: Time(),
});
export type ApprovalEventRow = Static<typeof ApprovalEventRowSchema>;
