// A company: the store's record and, the same fields, the API's summary of it (server views; its
// detail adds the CEO's mode, the tools it offers and the connectors' readiness).
import type { Static } from "typebox";
import { Type } from "typebox";
import { CompanySettingsSchema } from "../settings.js";
import { Closed, Id, Time } from "./fields.js";

export const CompanyRowSchema = Closed({
  id: Id(),
  name: Type.String(),
  goal: Type.String(),
  settings: CompanySettingsSchema,
  createdAt: Time(),
});
export type CompanyRow = Static<typeof CompanyRowSchema>;
