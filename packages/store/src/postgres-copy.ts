// `cadre migrate`: copies an embedded SQLite store into PostgreSQL, every table, ids included, in
// one target transaction that commits only when every table's row count and checksum match.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Kysely, sql, type Transaction } from "kysely";
import { StoreError } from "./errors.js";
import { migrate } from "./migrations.js";
import { type Column, readColumns, tableChecksum, type TableSide } from "./postgres-checksum.js";
import { openPostgres, type PostgresLocation } from "./postgres.js";
import { TABLES } from "./schema.js";
import { openSqlite, sqliteAdapter } from "./sqlite.js";

export interface CopyOptions {
  /** The SQLite store: its file, or the data directory holding `cadre.db`. */
  from: string;
  to: PostgresLocation;
  /** Empty a target that already holds rows instead of refusing it. */
  replace?: boolean;
  /** Rows per read and per insert; default 500. */
  batchSize?: number;
  onProgress?: (message: string) => void;
}

export interface TableReport {
  table: string;
  source: TableSide;
  target: TableSide;
}

export interface CopyReport {
  sqlitePath: string;
  tables: TableReport[];
}

/** The target already holds rows and `replace` was not asked for; nothing was written. */
export class TargetNotEmptyError extends StoreError {
  constructor(readonly counts: Record<string, number>) {
    const held = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ");
    super(
      `the target database already holds rows (${held}); nothing was copied. Empty it first, or ask to replace its contents`,
    );
    this.name = "TargetNotEmptyError";
  }
}

/** After the copy a table differed between the two sides; the copy was rolled back. */
export class CopyMismatchError extends StoreError {
  constructor(readonly report: CopyReport) {
    const bad = report.tables.filter((t) => !sidesMatch(t)).map((t) => t.table);
    super(
      `the copy differs from the source in ${bad.join(", ")}; it was rolled back, the target is unchanged`,
    );
    this.name = "CopyMismatchError";
  }
}

export function sidesMatch(t: TableReport): boolean {
  return t.source.rows === t.target.rows && t.source.checksum === t.target.checksum;
}

export function resolveSqlitePath(from: string): string {
  const path = existsSync(from) && statSync(from).isDirectory() ? join(from, "cadre.db") : from;
  if (!existsSync(path)) throw new StoreError(`no SQLite store at ${path}`);
  return path;
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyReport> {
  const progress = options.onProgress ?? (() => {});
  const batch = options.batchSize ?? 500;
  const sqlitePath = resolveSqlitePath(options.from);
  const source = openSqlite({ path: sqlitePath }) as Kysely<any>;
  try {
    // The source's schema is brought to this version first, as any cadre command would do.
    await migrate(source, sqliteAdapter);
    const target = await openPostgres(options.to);
    try {
      return await (target.db as Kysely<any>).transaction().execute(async (trx) => {
        // Nobody else writes the target while it is filled and checked.
        await sql`lock table ${sql.join(TABLES.map((t) => sql.table(t)))} in exclusive mode`.execute(trx);
        const columns = await readColumns(trx, target.schema);
        await ensureEmpty(trx, options.replace === true, progress);
        for (const table of TABLES)
          await copyTable(source, trx, table, columns.get(table) ?? [], batch, progress);
        await resetIdentities(trx, columns);
        const report: CopyReport = { sqlitePath, tables: [] };
        for (const table of TABLES) {
          progress(`${table}: checksums`);
          const cols = columns.get(table) ?? [];
          report.tables.push({
            table,
            source: await tableChecksum(source, table, cols, batch),
            target: await tableChecksum(trx, table, cols, batch),
          });
        }
        if (!report.tables.every(sidesMatch)) throw new CopyMismatchError(report);
        return report;
      });
    } finally {
      await target.db.destroy();
    }
  } finally {
    await source.destroy();
  }
}

async function ensureEmpty(
  trx: Transaction<any>,
  replace: boolean,
  progress: (m: string) => void,
): Promise<void> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row["n"]);
  }
  if (Object.values(counts).every((n) => n === 0)) return;
  if (!replace) throw new TargetNotEmptyError(counts);
  progress("target not empty: emptying it (replace)");
  await sql`truncate table ${sql.join(TABLES.map((t) => sql.table(t)))} restart identity`.execute(trx);
}

/**
 * Source rows in rowid order, i.e. the order they were written in: a row that refers to another of
 * its table (an agent's `reports_to`) then always comes after it, as foreign keys require.
 */
async function copyTable(
  source: Kysely<any>,
  trx: Transaction<any>,
  table: string,
  columns: Column[],
  batch: number,
  progress: (m: string) => void,
): Promise<void> {
  const sourceColumns = (
    await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(source)
  ).rows.map((r) => r.name);
  const names = columns.map((c) => c.name);
  if ([...sourceColumns].sort().join() !== [...names].sort().join()) {
    throw new StoreError(
      `table ${table} has columns (${sourceColumns.join(", ")}) in SQLite but (${names.join(", ")}) in PostgreSQL`,
    );
  }
  // PostgreSQL takes at most 65535 parameters per statement.
  const perInsert = Math.max(1, Math.min(batch, Math.floor(60_000 / Math.max(1, names.length))));
  let after: number | undefined;
  let copied = 0;
  for (;;) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select rowid as "__rowid", * from ${sql.table(table)} where ${after === undefined ? sql`true` : sql`rowid > ${after}`} order by rowid limit ${perInsert}`.execute(
      source,
    );
    if (rows.length === 0) break;
    after = rows.at(-1)!["__rowid"] as number;
    const values = rows.map((row) =>
      Object.fromEntries(
        columns.map((c) => [
          c.name,
          c.type === "boolean" ? sqliteAdapter.decodeBool(row[c.name] as 0 | 1) : row[c.name],
        ]),
      ),
    );
    await trx.insertInto(table).values(values).execute();
    copied += rows.length;
    progress(`${table}: ${copied} rows`);
  }
  if (copied === 0) progress(`${table}: empty`);
}

/** Copied ids were inserted explicitly: each identity continues after the largest one. */
async function resetIdentities(trx: Transaction<any>, columns: Map<string, Column[]>): Promise<void> {
  for (const [table, cols] of columns) {
    for (const c of cols.filter((col) => col.identity)) {
      await sql`select setval(pg_get_serial_sequence(${`"${table}"`}, ${c.name}), (select coalesce(max(${sql.ref(c.name)}), 0) + 1 from ${sql.table(table)}), false)`.execute(
        trx,
      );
    }
  }
}
