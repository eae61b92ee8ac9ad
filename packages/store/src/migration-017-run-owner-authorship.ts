// 017: one owner of a company's due-work loop (`cadre run`) at a time, and who wrote a
// task's deliverable.
//   companies.run_owner        the process running the company's due work (JSON text of a
//                              ProcessOwner), null when nobody does;
//   companies.run_owner_since  when it took it; companies.run_owner_until: its lease, renewed by
//                              its heartbeat (a holder on another host is known gone only by it);
//   tasks.deliverable_by       who handed the deliverable in: an agent id, or "operator"; null on
//                              rows from before this migration (the author was not recorded).
import type { Kysely, Migration } from "kysely";

export function runOwnerAuthorshipMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("companies").addColumn("run_owner", "text").execute();
      await db.schema.alterTable("companies").addColumn("run_owner_since", "text").execute();
      await db.schema.alterTable("companies").addColumn("run_owner_until", "text").execute();
      await db.schema.alterTable("tasks").addColumn("deliverable_by", "text").execute();
    },
  };
}
