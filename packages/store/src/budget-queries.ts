// Budgets and the spend ledger (migration 011), written once against Kysely's builder. KyselyQueries
// wraps each function with its error mapping.
import { sql, type Kysely } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { toBudget, toModelCall } from "./rows.js";
import type { Database } from "./schema.js";
import type {
  BudgetRow,
  ModelCallRow,
  ModelCallSettlement,
  NewBudget,
  NewModelCall,
  Spend,
  SpendFilter,
} from "./types.js";

const now = (): string => new Date().toISOString();

export async function getBudget(
  db: Kysely<Database>,
  a: DialectAdapter,
  companyId: string,
  agentId: string | null,
): Promise<BudgetRow | undefined> {
  const row = await db
    .selectFrom("budgets")
    .selectAll()
    .where("company_id", "=", companyId)
    .where("agent_id", "=", agentId ?? "")
    .executeTakeFirst();
  return row && toBudget(row, a);
}

export async function listBudgets(
  db: Kysely<Database>,
  a: DialectAdapter,
  companyId: string,
): Promise<BudgetRow[]> {
  const rows = await db
    .selectFrom("budgets")
    .selectAll()
    .where("company_id", "=", companyId)
    .orderBy("agent_id")
    .execute();
  return rows.map((r) => toBudget(r, a));
}

/** Insert or replace; run inside one transaction (the caller's `atomic`). */
export async function putBudget(
  db: Kysely<Database>,
  a: DialectAdapter,
  budget: NewBudget,
): Promise<BudgetRow> {
  const values = {
    company_id: budget.companyId,
    agent_id: budget.agentId ?? "",
    limit_usd: budget.limitUsd,
    limit_tokens: budget.limitTokens,
    period: budget.period,
    warn_at: budget.warnAt,
    run_caps: budget.runCaps === null ? null : a.encodeJson(budget.runCaps),
    updated_at: now(),
  };
  await db
    .deleteFrom("budgets")
    .where("company_id", "=", values.company_id)
    .where("agent_id", "=", values.agent_id)
    .execute();
  const row = await db.insertInto("budgets").values(values).returningAll().executeTakeFirstOrThrow();
  return toBudget(row, a);
}

export async function reserveModelCall(db: Kysely<Database>, call: NewModelCall): Promise<ModelCallRow> {
  const row = await db
    .insertInto("model_calls")
    .values({
      id: call.id,
      company_id: call.companyId,
      agent_id: call.agentId,
      run_id: call.runId,
      status: "reserved",
      model: call.model,
      served_model: null,
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: null,
      reserved_tokens: call.reservedTokens,
      reserved_usd: call.reservedUsd,
      created_at: now(),
      settled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toModelCall(row);
}

/**
 * Settles the call and adds it to its running totals (the company's and its agent's, all time and
 * its month): run inside one transaction (the caller's `atomic`), so the totals move with the ledger.
 */
export async function settleModelCall(
  db: Kysely<Database>,
  id: string,
  s: ModelCallSettlement,
): Promise<boolean> {
  const row = await db
    .updateTable("model_calls")
    .set({
      status: "settled",
      served_model: s.servedModel,
      input_tokens: s.usage.input,
      output_tokens: s.usage.output,
      cache_read_tokens: s.usage.cacheRead,
      cache_write_tokens: s.usage.cacheWrite,
      cost_usd: s.costUsd,
      settled_at: now(),
    })
    .where("id", "=", id)
    .where("status", "=", "reserved")
    .returning(["company_id", "agent_id", "created_at"])
    .executeTakeFirst();
  if (!row) return false;
  const tokens = s.usage.input + s.usage.output + s.usage.cacheRead + s.usage.cacheWrite;
  const month = row.created_at.slice(0, 7);
  const add = { tokens, usd: s.costUsd ?? 0, unpriced_calls: s.costUsd === null ? 1 : 0, calls: 1 };
  await db
    .insertInto("spend_totals")
    .values(
      [
        ["", ""],
        ["", month],
        [row.agent_id, ""],
        [row.agent_id, month],
      ].map(([agent_id, m]) => ({ company_id: row.company_id, agent_id: agent_id!, month: m!, ...add })),
    )
    .onConflict((oc) =>
      oc.columns(["company_id", "agent_id", "month"]).doUpdateSet({
        tokens: sql`spend_totals.tokens + excluded.tokens`,
        usd: sql`spend_totals.usd + excluded.usd`,
        unpriced_calls: sql`spend_totals.unpriced_calls + excluded.unpriced_calls`,
        calls: sql`spend_totals.calls + excluded.calls`,
      }),
    )
    .execute();
  return true;
}

export async function releaseModelCalls(db: Kysely<Database>, runId: string): Promise<number> {
  const result = await db
    .deleteFrom("model_calls")
    .where("run_id", "=", runId)
    .where("status", "=", "reserved")
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listModelCalls(db: Kysely<Database>, runId: string): Promise<ModelCallRow[]> {
  const rows = await db
    .selectFrom("model_calls")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toModelCall);
}

/**
 * Serialises the spend decisions of one company (a reservation checks, then inserts): on
 * PostgreSQL a row lock on the company (FOR NO KEY UPDATE, which inserts referencing the company do
 * not wait for); SQLite runs one write transaction at a time already.
 */
export async function lockSpend(
  db: Kysely<Database>,
  a: DialectAdapter,
  companyId: string,
): Promise<boolean> {
  if (a.name !== "postgres") {
    const row = await db.selectFrom("companies").select("id").where("id", "=", companyId).executeTakeFirst();
    return row !== undefined;
  }
  const row = await db
    .selectFrom("companies")
    .select("id")
    .where("id", "=", companyId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** A period start the monthly totals can answer: the first instant of a UTC month. */
const MONTH_START = /^(\d{4}-\d{2})-01T00:00:00(\.000)?Z$/;

/**
 * Spend from the running totals (what was settled) and the live reservations (a handful: the calls
 * in flight), so a budget check costs the same whatever the size of the ledger. A run's spend, or
 * one from a time inside a month, is summed from the ledger (`spendOfLedger`).
 */
export async function spendOf(db: Kysely<Database>, filter: SpendFilter): Promise<Spend> {
  const month = filter.since === undefined ? "" : MONTH_START.exec(filter.since)?.[1];
  if (filter.runId !== undefined || month === undefined) return spendOfLedger(db, filter);
  let totals = db
    .selectFrom("spend_totals")
    .where("company_id", "=", filter.companyId)
    .where("agent_id", "=", filter.agentId ?? "");
  totals = month === "" ? totals.where("month", "=", "") : totals.where("month", ">=", month);
  const used = totals
    .select([
      sql<number>`coalesce(sum(tokens), 0)`.as("used_tokens"),
      sql<number>`coalesce(sum(usd), 0)`.as("used_usd"),
      sql<number>`coalesce(sum(unpriced_calls), 0)`.as("unpriced"),
      sql<number>`coalesce(sum(calls), 0)`.as("calls"),
    ])
    .as("t");
  let live = db
    .selectFrom("model_calls as m")
    .innerJoin("runs as r", "r.id", "m.run_id")
    .where("m.company_id", "=", filter.companyId)
    .where("m.status", "=", "reserved")
    .where("r.status", "=", "running");
  if (filter.agentId !== undefined) live = live.where("m.agent_id", "=", filter.agentId);
  // Compared as an expression, not as the column: an index on created_at would otherwise win the
  // plan and scan every call of the month (100k rows: a quarter of a second per budget check),
  // where the partial index on reservations (the calls in flight, a handful) is what this reads.
  if (filter.since !== undefined) live = live.where(sql<string>`m.created_at || ''`, ">=", filter.since);
  const reserved = live
    .select([
      sql<number>`coalesce(sum(m.reserved_tokens), 0)`.as("reserved_tokens"),
      sql<number>`coalesce(sum(coalesce(m.reserved_usd, 0)), 0)`.as("reserved_usd"),
    ])
    .as("l");
  // Both sums in one statement (one round trip), each planned on its own.
  const row = await db.selectFrom([used, reserved]).selectAll().executeTakeFirstOrThrow();
  const reservedTokens = Number(row.reserved_tokens);
  const reservedUsd = Number(row.reserved_usd);
  return {
    tokens: Number(row.used_tokens) + reservedTokens,
    usd: Number(row.used_usd) + reservedUsd,
    unpricedCalls: Number(row.unpriced),
    calls: Number(row.calls),
    reservedTokens,
    reservedUsd,
  };
}

/** Spend summed over the ledger rows the filter selects (what the running totals must always equal). */
export async function spendOfLedger(db: Kysely<Database>, filter: SpendFilter): Promise<Spend> {
  let query = db
    .selectFrom("model_calls as m")
    .innerJoin("runs as r", "r.id", "m.run_id")
    .where("m.company_id", "=", filter.companyId);
  if (filter.agentId !== undefined) query = query.where("m.agent_id", "=", filter.agentId);
  if (filter.runId !== undefined) query = query.where("m.run_id", "=", filter.runId);
  if (filter.since !== undefined) query = query.where("m.created_at", ">=", filter.since);
  // A reservation counts while its run runs; a run that ended keeps only what it settled.
  const settled = sql`m.status = 'settled'`;
  const live = sql`m.status = 'reserved' and r.status = 'running'`;
  const row = await query
    .select([
      sql<number>`coalesce(sum(case when ${settled} then m.input_tokens + m.output_tokens + m.cache_read_tokens + m.cache_write_tokens else 0 end), 0)`.as(
        "used_tokens",
      ),
      sql<number>`coalesce(sum(case when ${settled} then coalesce(m.cost_usd, 0) else 0 end), 0)`.as(
        "used_usd",
      ),
      sql<number>`coalesce(sum(case when ${settled} and m.cost_usd is null then 1 else 0 end), 0)`.as(
        "unpriced",
      ),
      sql<number>`coalesce(sum(case when ${settled} then 1 else 0 end), 0)`.as("calls"),
      sql<number>`coalesce(sum(case when ${live} then m.reserved_tokens else 0 end), 0)`.as(
        "reserved_tokens",
      ),
      sql<number>`coalesce(sum(case when ${live} then coalesce(m.reserved_usd, 0) else 0 end), 0)`.as(
        "reserved_usd",
      ),
    ])
    .executeTakeFirstOrThrow();
  const reservedTokens = Number(row.reserved_tokens);
  const reservedUsd = Number(row.reserved_usd);
  return {
    tokens: Number(row.used_tokens) + reservedTokens,
    usd: Number(row.used_usd) + reservedUsd,
    unpricedCalls: Number(row.unpriced),
    calls: Number(row.calls),
    reservedTokens,
    reservedUsd,
  };
}
