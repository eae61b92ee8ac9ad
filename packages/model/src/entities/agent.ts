// An agent: the store's record and, being the same fields, the API's view of it (server views).
import type { Static } from "typebox";
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { AGENT_STATUSES, DEPARTMENTS, VIAS } from "../vocabulary.js";
import { Closed, Id, Time } from "./fields.js";

export const AgentRowSchema = Closed({
  id: Id(),
  companyId: Id(),
  name: Type.String(),
  role: Type.String(),
  description: Type.String(),
  department: Nullable(OneOf(DEPARTMENTS)),
  connectorId: Id(),
  model: Type.String(),
  reportsTo: Nullable(Id("The manager's agent id; null for the CEO.")),
  isCeo: Type.Boolean(),
  status: OneOf(AGENT_STATUSES),
  via: OneOf(VIAS, {
    description: "The path that created it: the tool, the legacy HTTP route, or the system.",
  }),
  createdAt: Time(),
});
export type AgentRow = Static<typeof AgentRowSchema>;
