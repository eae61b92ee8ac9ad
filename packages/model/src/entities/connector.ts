// A connector: the store's record. Its API view (company connectors/connector-view.ts) adds readiness,
// the models with their windows, and shows the config with anything secret-looking redacted.
import type { Static } from "typebox";
import { Type } from "typebox";
import { OneOf } from "../schema.js";
import { CONNECTOR_KINDS } from "../vocabulary.js";
import { Closed, Id, Time } from "./fields.js";

export const ConnectorRowSchema = Closed({
  companyId: Id(),
  id: Id("Unique within its company, readable by models."),
  kind: OneOf(CONNECTOR_KINDS),
  label: Type.String(),
  enabledModels: Type.Array(Type.String(), { description: "Explicit model ids." }),
  config: Type.Record(Type.String(), Type.Unknown(), {
    description: "Non-secret configuration (base URL, env var names, seed). Secrets are never stored here.",
  }),
  modelFingerprints: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description:
        "What the endpoint offered for each model when it was declared (Ollama's digest, a model list entry's metadata), by model id; a model the endpoint offered nothing for is absent.",
    }),
  ),
  createdAt: Time(),
});
export type ConnectorRow = Static<typeof ConnectorRowSchema>;
