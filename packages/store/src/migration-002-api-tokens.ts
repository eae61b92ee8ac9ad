// 002: agent-scoped API tokens. Only a SHA-256 hash of each token is kept (unique, so a lookup by
// hash is one index probe); revocation is a timestamp, so a revoked token stays explainable.
import type { Kysely, Migration } from "kysely";

export function apiTokensMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("api_tokens")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("hash", "text", (c) => c.notNull().unique())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.notNull().references("agents.id"))
        .addColumn("run_id", "text", (c) => c.references("runs.id"))
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema
        .createIndex("api_tokens_agent_created")
        .on("api_tokens")
        .columns(["agent_id", "created_at", "id"])
        .execute();
    },
  };
}
