// 025: a model is pinned by what the endpoint serves (MC-6). When a connector's model is
// declared, the fingerprint its endpoint offers for it (Ollama's digest, a `/v1/models` entry's
// metadata) is kept with the connector, `{ [modelId]: fingerprint }`, so a later probe or wake can
// tell the model under the same id was replaced. Null for connectors declared before, or whose
// endpoint offers none.
import type { Kysely, Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";

export function modelFingerprintsMigration(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("connectors").addColumn("model_fingerprints", adapter.jsonType).execute();
    },
  };
}
