// 013: a wake reason is served or explicitly cancelled, never lost (OP-5). A request
// taken by a run that did not finish — its process was lost, or a budget stopped it — goes back to
// pending; `returns` counts how often, so that a reason whose runs keep being lost is cancelled
// explicitly (with a note) instead of being retried for ever.
import type { Kysely, Migration } from "kysely";

export function wakeRequestReturnsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("wake_requests")
        .addColumn("returns", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
