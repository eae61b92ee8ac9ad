// 005: the results of a run's side-effecting tool calls, keyed by (run, tool-call id), so that a
// tool call executed again (a duplicated or redelivered call, on any machine) returns what it did
// the first time and writes nothing (MC-10 across machines). The primary key is the arbiter: of two
// concurrent executions of one call, only one can commit its record, and with it its side effect.
import type { Kysely, Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";

export function toolCallsMigration(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("tool_calls")
        .addColumn("run_id", "text", (c) => c.notNull().references("runs.id"))
        .addColumn("tool_call_id", "text", (c) => c.notNull())
        .addColumn("tool", "text", (c) => c.notNull())
        .addColumn("input_hash", "text", (c) => c.notNull())
        .addColumn("result", adapter.jsonType, (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("tool_calls_pk", ["run_id", "tool_call_id"])
        .execute();
    },
  };
}
