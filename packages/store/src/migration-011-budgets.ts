// 011: cost control. `budgets` keeps a company's budget (agent_id '') and its agents'
// own: a USD and/or token limit over a period, the warn threshold and, on the company row, the caps
// every run of the company has. `model_calls` is the spend ledger: one row per model call, written
// as a reservation before the call (its estimated input and maximum output at the model's price)
// and settled, in the transaction that records the run's usage, with what the call used and cost
// at the price of the model that served it (null when that price is unknown). A budget's spend is
// the settled rows plus the reservations of runs still running, so two workers can never reserve
// the same room. `runs.stop_reason` says why a run was stopped in code ("budget", "run_cap").
import type { Kysely, Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";

export function budgetsMigration(adapter: DialectAdapter): Migration {
  const json = adapter.jsonType;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("budgets")
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        // '' for the company's own budget; an agent id for that agent's.
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("limit_usd", "double precision")
        .addColumn("limit_tokens", "integer")
        .addColumn("period", "text", (c) => c.notNull())
        .addColumn("warn_at", "double precision", (c) => c.notNull())
        .addColumn("run_caps", json)
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("budgets_pk", ["company_id", "agent_id"])
        .execute();

      await db.schema
        .createTable("model_calls")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.notNull().references("agents.id"))
        .addColumn("run_id", "text", (c) => c.notNull().references("runs.id"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("served_model", "text")
        .addColumn("input_tokens", "integer", (c) => c.notNull())
        .addColumn("output_tokens", "integer", (c) => c.notNull())
        .addColumn("cache_read_tokens", "integer", (c) => c.notNull())
        .addColumn("cache_write_tokens", "integer", (c) => c.notNull())
        .addColumn("cost_usd", "double precision")
        .addColumn("reserved_tokens", "integer", (c) => c.notNull())
        .addColumn("reserved_usd", "double precision")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("settled_at", "text")
        .execute();
      await db.schema
        .createIndex("model_calls_company_created")
        .on("model_calls")
        .columns(["company_id", "created_at"])
        .execute();
      await db.schema
        .createIndex("model_calls_agent_created")
        .on("model_calls")
        .columns(["agent_id", "created_at"])
        .execute();
      await db.schema
        .createIndex("model_calls_run")
        .on("model_calls")
        .columns(["run_id", "created_at"])
        .execute();

      await db.schema.alterTable("runs").addColumn("stop_reason", "text").execute();
    },
  };
}
