// 003: the company feed, one id space over run_events and activity. Live subscribers (SSE) resume
// from a single feed id, so an agent event and a domain event can never be delivered out of the
// order in which they were committed, nor twice, nor skipped across a reconnect. Rows that existed
// before this migration are back-filled in time order.
import { sql, type Kysely, type Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";

export function companyFeedMigration(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("company_feed")
        .addColumn("id", "integer", (c) => adapter.autoIncrement(c.primaryKey()))
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("run_event_id", "integer", (c) => c.unique().references("run_events.id"))
        .addColumn("activity_id", "integer", (c) => c.unique().references("activity.id"))
        .addCheckConstraint("company_feed_one_ref", sql`(run_event_id is null) <> (activity_id is null)`)
        .execute();
      await db.schema
        .createIndex("company_feed_company")
        .on("company_feed")
        .columns(["company_id", "id"])
        .execute();
      await sql`
        insert into company_feed (company_id, run_event_id, activity_id)
        select company_id, run_event_id, activity_id from (
          select company_id, id as run_event_id, null as activity_id, at, 0 as source, id as source_id from run_events
          union all
          select company_id, null, id, at, 1, id from activity
        ) as merged
        order by at, source, source_id`.execute(db);
    },
  };
}
