// 018: who did what. `operators` are the named people who sign in (a token stored
// hashed, a role, optionally the companies they are limited to); `audit_log` is append-only, one
// row per audited write, written in the transaction of the write; a task comment names the
// operator who wrote it (`author_name`, null for agents and for the bootstrap owner's older rows).
import type { Kysely, Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";

export function peopleMigration(adapter: DialectAdapter): Migration {
  const json = adapter.jsonType;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("operators")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull().unique())
        .addColumn("role", "text", (c) => c.notNull())
        // null: every company; else a JSON array of company ids.
        .addColumn("company_ids", json)
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("revoked_at", "text")
        .execute();

      await db.schema
        .createTable("audit_log")
        .addColumn("id", "integer", (c) => adapter.autoIncrement(c.primaryKey()))
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("company_id", "text")
        .addColumn("actor_type", "text", (c) => c.notNull())
        .addColumn("actor_id", "text")
        .addColumn("actor_name", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("target", "text", (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull())
        .addColumn("request_id", "text")
        .addColumn("run_id", "text")
        .execute();
      await db.schema
        .createIndex("audit_log_company")
        .on("audit_log")
        .columns(["company_id", "id"])
        .execute();

      await db.schema.alterTable("task_comments").addColumn("author_name", "text").execute();
    },
  };
}
