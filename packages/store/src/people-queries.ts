// Operators and the audit log (migration 018), written once against Kysely's builder. KyselyQueries
// wraps each function with its error mapping.
import type { Kysely, Selectable } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { run } from "./prepared.js";
import type { AuditLogTable, Database, OperatorsTable } from "./schema.js";
import type { AuditFilter, AuditRow, NewOperator, OperatorRow } from "./types.js";

const now = (): string => new Date().toISOString();

function toOperator(r: Selectable<OperatorsTable>, a: DialectAdapter): OperatorRow {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    companyIds: r.company_ids === null ? null : (a.decodeJson(r.company_ids) as string[]),
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}

function toAudit(r: Selectable<AuditLogTable>): AuditRow {
  return {
    id: Number(r.id),
    at: r.at,
    companyId: r.company_id,
    actorType: r.actor_type,
    actorId: r.actor_id,
    actorName: r.actor_name,
    action: r.action,
    target: r.target,
    summary: r.summary,
    requestId: r.request_id,
    runId: r.run_id,
  };
}

export async function insertOperator(
  db: Kysely<Database>,
  a: DialectAdapter,
  o: NewOperator,
): Promise<OperatorRow> {
  const row = await db
    .insertInto("operators")
    .values({
      id: o.id,
      name: o.name,
      role: o.role,
      company_ids: o.companyIds === null ? null : a.encodeJson(o.companyIds),
      token_hash: o.hash,
      created_at: now(),
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toOperator(row, a);
}

export async function listOperators(db: Kysely<Database>, a: DialectAdapter): Promise<OperatorRow[]> {
  const rows = await db.selectFrom("operators").selectAll().orderBy("created_at").orderBy("id").execute();
  return rows.map((r) => toOperator(r, a));
}

export async function findOperatorByHash(
  db: Kysely<Database>,
  a: DialectAdapter,
  hash: string,
): Promise<OperatorRow | undefined> {
  const row = await db.selectFrom("operators").selectAll().where("token_hash", "=", hash).executeTakeFirst();
  return row && toOperator(row, a);
}

export async function revokeOperator(db: Kysely<Database>, idOrName: string): Promise<boolean> {
  const result = await db
    .updateTable("operators")
    .set({ revoked_at: now() })
    .where((eb) => eb.or([eb("id", "=", idOrName), eb("name", "=", idOrName)]))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export type NewAuditRow = Omit<AuditRow, "id" | "at">;

const INSERT_AUDIT = `insert into audit_log (at, company_id, actor_type, actor_id, actor_name, action, target, summary, request_id, run_id)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** One audit row, beside the write it records (a fixed statement: it is on every audited write's path). */
export async function insertAudit(
  db: Kysely<Database>,
  adapter: DialectAdapter,
  row: NewAuditRow,
): Promise<void> {
  await run(db, adapter, INSERT_AUDIT, [
    now(),
    row.companyId,
    row.actorType,
    row.actorId,
    row.actorName,
    row.action,
    row.target,
    row.summary,
    row.requestId,
    row.runId,
  ]);
}

export async function listAudit(db: Kysely<Database>, filter: AuditFilter = {}): Promise<AuditRow[]> {
  let q = db.selectFrom("audit_log").selectAll();
  if (filter.companyId !== undefined) q = q.where("company_id", "=", filter.companyId);
  if (filter.actor !== undefined) {
    const actor = filter.actor;
    q = q.where((eb) => eb.or([eb("actor_id", "=", actor), eb("actor_name", "=", actor)]));
  }
  if (filter.since !== undefined) q = q.where("at", ">=", filter.since);
  if (filter.target !== undefined) q = q.where("target", "=", filter.target);
  if (filter.after !== undefined) q = q.where("id", ">", filter.after);
  q = q.orderBy("id");
  if (filter.limit !== undefined) q = q.limit(filter.limit);
  return (await q.execute()).map(toAudit);
}
