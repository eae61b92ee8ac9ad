// 004: wakes taken from the shared queue by workers on several machines. A wake records the run it
// started (so that a redelivered wake never starts a second one) and, while it runs, which worker
// holds it and until when (a lease the worker's heartbeat renews). At most one running wake per
// agent: the partial unique index makes that a database rule, whatever the number of workers.
import { sql, type Kysely, type Migration } from "kysely";

export function wakesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("wakes")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.notNull().references("agents.id"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("run_id", "text", (c) => c.references("runs.id"))
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("worker_id", "text")
        .addColumn("lease_until", "text")
        .addColumn("error", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("wakes_one_running_per_agent")
        .on("wakes")
        .column("agent_id")
        .unique()
        .where(sql.ref("status"), "=", "running")
        .execute();
      await db.schema
        .createIndex("wakes_status_lease")
        .on("wakes")
        .columns(["status", "lease_until"])
        .execute();
    },
  };
}
