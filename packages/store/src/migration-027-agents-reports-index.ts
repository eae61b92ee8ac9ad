// 027: an index of the agents by whom they report to, in creation order, so that a bounded
// directory reads an agent's peers and reports (the first of them, and their count) without
// scanning the company's whole team.
import type { Kysely, Migration } from "kysely";

export function agentsReportsIndexMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex("agents_company_reports")
        .on("agents")
        .columns(["company_id", "reports_to", "created_at", "id"])
        .execute();
    },
  };
}
