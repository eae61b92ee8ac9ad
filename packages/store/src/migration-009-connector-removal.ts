// 009: a connector can be removed (`cadre connectors remove`, DELETE …/connectors/{id}). Agents keep
// the id of the connector they ran on — a terminated agent's record still says where it ran — so a
// removed connector keeps its row, marked `removed_at`, and leaves every list and look-up; adding a
// connector of the same id later reuses that row.
import type { Kysely, Migration } from "kysely";

export function connectorRemovalMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("connectors").addColumn("removed_at", "text").execute();
    },
  };
}
