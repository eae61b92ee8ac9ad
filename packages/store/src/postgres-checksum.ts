// Row counts and checksums of a table, computed the same way on SQLite and on PostgreSQL, so that
// `cadre migrate` can show that nothing was lost or changed in the copy.
import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";

export interface Column {
  name: string;
  /** PostgreSQL's data_type: "text", "integer", "boolean", "json", … */
  type: string;
  identity: boolean;
  /** Position in the primary key, from 1; null when not part of it. */
  primaryKey: number | null;
}

export interface TableSide {
  rows: number;
  /** 32 hex digits; equal on both sides when every row is. */
  checksum: string;
}

/** Columns of every table in `schema`, as PostgreSQL describes them (the copy's one type source). */
export async function readColumns(db: Kysely<any>, schema: string): Promise<Map<string, Column[]>> {
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_identity: string;
    pk: number | null;
  }>`
    select c.table_name, c.column_name, c.data_type, c.is_identity,
      (select k.ordinal_position from information_schema.table_constraints t
        join information_schema.key_column_usage k
          on k.constraint_name = t.constraint_name and k.table_schema = t.table_schema and k.table_name = t.table_name
        where t.table_schema = c.table_schema and t.table_name = c.table_name
          and t.constraint_type = 'PRIMARY KEY' and k.column_name = c.column_name) as pk
    from information_schema.columns c
    where c.table_schema = ${schema}
    order by c.table_name, c.ordinal_position`.execute(db);
  const tables = new Map<string, Column[]>();
  for (const r of rows) {
    const list = tables.get(r.table_name) ?? [];
    list.push({
      name: r.column_name,
      type: r.data_type,
      identity: r.is_identity === "YES",
      primaryKey: r.pk === null ? null : Number(r.pk),
    });
    tables.set(r.table_name, list);
  }
  return tables;
}

/** A stored value as both dialects agree on it: SQLite's 0/1 booleans and its numbers, PostgreSQL's. */
function normalise(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return value === true || value === 1;
  if (type === "integer" || type === "bigint" || type === "smallint") return Number(value);
  return value;
}

const MOD = 1n << 128n;

/**
 * Reads the table in primary-key pages. Each row hashes to 128 bits (SHA-256 of its columns by
 * name) and the table's checksum is their sum modulo 2^128: independent of the read order, which
 * the two databases' collations may make differ, while any changed, lost or extra row changes it.
 */
export async function tableChecksum(
  db: Kysely<any>,
  table: string,
  columns: Column[],
  batch: number,
): Promise<TableSide> {
  const byName = [...columns].sort((a, b) => (a.name < b.name ? -1 : 1));
  const key = columns.filter((c) => c.primaryKey !== null).sort((a, b) => a.primaryKey! - b.primaryKey!);
  if (key.length === 0) throw new Error(`table ${table} has no primary key to page by`);
  const keyRefs = sql.join(key.map((c) => sql.ref(c.name)));
  let last: unknown[] | undefined;
  let rows = 0;
  let sum = 0n;
  for (;;) {
    const after = last === undefined ? sql`true` : sql`(${keyRefs}) > (${sql.join(last)})`;
    const page = (
      await sql<
        Record<string, unknown>
      >`select * from ${sql.table(table)} where ${after} order by ${keyRefs} limit ${batch}`.execute(db)
    ).rows;
    if (page.length === 0) break;
    for (const row of page) {
      const canonical = JSON.stringify(byName.map((c) => [c.name, normalise(row[c.name], c.type)]));
      sum = (sum + BigInt(`0x${createHash("sha256").update(canonical).digest("hex").slice(0, 32)}`)) % MOD;
    }
    rows += page.length;
    const lastRow = page.at(-1)!;
    last = key.map((c) => lastRow[c.name]);
  }
  return { rows, checksum: sum.toString(16).padStart(32, "0") };
}
