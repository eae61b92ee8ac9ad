// 008: each agent's current native session, so a later wake continues it (a Pi session file, a
// Claude Code session id, a Codex thread id) unless a rollover, a model switch with handoff or the
// operator starts a fresh one. One row per agent: the session to resume and the model, connector
// and reserve it was built for, or the handoff a fresh one starts from; the bounded digest a failed
// resume heals from; the prompt the session was built with (MC-3: fixed for its lifetime); the
// vendor's cumulative counters last seen for it (MC-15); and the run holding it (the session lock
// across processes, shared by a wake and a model switch, MC-13).
import type { Kysely, Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";

export function agentSessionsMigration(adapter: DialectAdapter): Migration {
  const json = adapter.jsonType;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("agent_sessions")
        .addColumn("agent_id", "text", (c) => c.primaryKey().references("agents.id"))
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("harness", "text", (c) => c.notNull())
        .addColumn("connector_id", "text", (c) => c.notNull())
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("session_id", "text")
        .addColumn("session_file", "text")
        .addColumn("reserve_tokens", "integer")
        .addColumn("tokens_in_window", "integer")
        .addColumn("rolled_over", "boolean", (c) => c.notNull())
        .addColumn("bootstrap", json)
        .addColumn("digest", json, (c) => c.notNull())
        .addColumn("prompt", json)
        .addColumn("vendor_totals", json)
        .addColumn("running_run_id", "text", (c) => c.references("runs.id"))
        .addColumn("last_run_id", "text", (c) => c.references("runs.id"))
        .addColumn("previous_session_id", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_used_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("agent_sessions_company")
        .on("agent_sessions")
        .columns(["company_id", "agent_id"])
        .execute();
    },
  };
}
