// 021: a budget's spend read from running totals, not re-summed from the ledger on every
// check. `spend_totals` holds, per company and agent ('' for the whole company) and per month of
// the calls' creation ('' for all time), the settled calls' tokens, priced USD, unpriced and total
// call counts. Each settlement adds to its four rows in the transaction that settles the call, so
// the totals always equal a re-sum of the settled ledger. Existing settled calls are summed in once.
// The partial index keeps the live reservations (the rest of a budget's spend) a small read.
import { type Kysely, type Migration, sql } from "kysely";

export function spendTotalsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("spend_totals")
        .addColumn("company_id", "text", (c) => c.notNull())
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("month", "text", (c) => c.notNull())
        .addColumn("tokens", "bigint", (c) => c.notNull())
        .addColumn("usd", "double precision", (c) => c.notNull())
        .addColumn("unpriced_calls", "integer", (c) => c.notNull())
        .addColumn("calls", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("spend_totals_pk", ["company_id", "agent_id", "month"])
        .execute();
      await sql`create index model_calls_reserved on model_calls (company_id, agent_id) where status = 'reserved'`.execute(
        db,
      );
      const used = sql`input_tokens + output_tokens + cache_read_tokens + cache_write_tokens`;
      const monthOf = sql`substr(created_at, 1, 7)`;
      // PostgreSQL groups by expressions only, never by a constant: each row kind lists its own.
      for (const [agent, month, groups] of [
        [sql`''`, sql`''`, [sql`company_id`]],
        [sql`''`, monthOf, [sql`company_id`, monthOf]],
        [sql`agent_id`, sql`''`, [sql`company_id`, sql`agent_id`]],
        [sql`agent_id`, monthOf, [sql`company_id`, sql`agent_id`, monthOf]],
      ] as const)
        await sql`insert into spend_totals (company_id, agent_id, month, tokens, usd, unpriced_calls, calls)
          select company_id, ${agent}, ${month}, coalesce(sum(${used}), 0), coalesce(sum(coalesce(cost_usd, 0)), 0),
            sum(case when cost_usd is null then 1 else 0 end), count(*)
          from model_calls where status = 'settled' group by ${sql.join([...groups])}`.execute(db);
    },
  };
}
