// 027: indexes of the active team, so that a bounded directory and the company's counts read only
// index entries: by status in creation order (the first of the team, the count of active agents)
// and by manager and status in creation order (an agent's peers and reports, and their counts) —
// never the rows of the whole team.
import type { Kysely, Migration } from "kysely";

export function agentsTeamIndexesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex("agents_company_status")
        .on("agents")
        .columns(["company_id", "status", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("agents_company_reports")
        .on("agents")
        .columns(["company_id", "reports_to", "status", "created_at", "id"])
        .execute();
    },
  };
}
