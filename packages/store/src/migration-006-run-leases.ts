// 006: every run is held under a wake lease, in-process runs too (not only the queue's), so that a
// run whose process is gone can be told from one still going, on SQLite as on PostgreSQL. A wake
// records the process holding it (host, pid and that process's start time, which tells a live
// owner from a recycled pid), and `run_processes` the child process groups a run started (the
// legacy profile's bash commands), so that whoever recovers the run can kill what it left behind.
import type { Kysely, Migration } from "kysely";

export function runLeasesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema.alterTable("wakes").addColumn("owner_host", "text").execute();
      await db.schema.alterTable("wakes").addColumn("owner_pid", "integer").execute();
      await db.schema.alterTable("wakes").addColumn("owner_started", "text").execute();
      await db.schema
        .createTable("run_processes")
        .addColumn("run_id", "text", (c) => c.notNull().references("runs.id"))
        .addColumn("pid", "integer", (c) => c.notNull())
        .addColumn("host", "text", (c) => c.notNull())
        .addColumn("started", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("run_processes_pk", ["run_id", "pid"])
        .execute();
      // Recovery looks for running runs on every open of the store.
      await db.schema.createIndex("runs_status").on("runs").column("status").execute();
    },
  };
}
