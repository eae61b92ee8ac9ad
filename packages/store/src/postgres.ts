// PostgreSQL (pg), for several machines sharing one database: the pool, its type parsing, the
// schema, and migrations that are safe when several instances start at once.
import { CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import { createHash } from "node:crypto";
import type pg from "pg";
import type { DialectAdapter } from "./dialect.js";
import { KyselyStore } from "./kysely-store.js";
import { migrate } from "./migrations.js";
import { LOCK_CLASS, postgresAdapter } from "./postgres-adapter.js";
import { loadedPg, loadPg } from "./pg-driver.js";
import { StoreError } from "./errors.js";
import type { Database } from "./schema.js";
import type { Store } from "./types.js";

export interface PostgresLocation {
  /** `postgres://user:password@host:port/database` (or `postgresql://…`; libpq query parameters allowed). */
  url: string;
  /** Schema of the store's tables, created if missing; default: the connection's current schema (public). */
  schema?: string;
  /** Connections in the pool; default 10. */
  poolSize?: number;
}

const INT8 = 20;
const JSON_OID = 114;

/**
 * Type parsing for this pool only (never pg's global registry, which other code may share): JSON
 * stays text as in SQLite; bigints (count(*), ids) become numbers, refusing any beyond 2^53.
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === JSON_OID) return (value: string) => value;
    if (oid === INT8) {
      return (value: string) => {
        const n = Number(value);
        if (!Number.isSafeInteger(n))
          throw new StoreError(`integer ${value} is beyond what JavaScript numbers hold exactly`);
        return n;
      };
    }
    return loadedPg().types.getTypeParser(oid, format ?? "text");
  },
};

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/i, "$1:***@");
}

const DML = /^\s*(select|insert|update|delete|with)\b/i;
const PREPARED = Symbol("cadre.preparedStatements");

/**
 * Each connection prepares a parameterised query once and then only binds and executes it: pg runs
 * a query given a name as a named prepared statement, parsed and planned on its first use on that
 * connection. Kysely passes (text, values); the name is derived from the text, so the same SQL
 * reuses its statement and different SQL never shares a name. Other calls (no values, DDL,
 * transaction control, cursors) go through unchanged.
 */
function preparingStatements(client: pg.PoolClient): void {
  const marked = client as pg.PoolClient & { [PREPARED]?: true };
  if (marked[PREPARED]) return;
  marked[PREPARED] = true;
  const names = new Map<string, string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === "string" && Array.isArray(values) && DML.test(text)) {
      let name = names.get(text);
      if (name === undefined) {
        name = `cadre_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
        // Bounded: a long-lived connection forgets the oldest names (the server keeps the statements).
        if (names.size >= 2000) names.clear();
        names.set(text, name);
      }
      return query({ name, text, values });
    }
    return query(...args);
  };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Opens a pool on `location`, brings the schema up to date and returns the store over it. */
export async function openPostgresStore(location: PostgresLocation): Promise<Store> {
  const { db, adapter } = await openPostgres(location);
  return new KyselyStore(db, adapter);
}

export interface OpenPostgres {
  db: Kysely<Database>;
  adapter: DialectAdapter;
  /** The schema holding the store's tables. */
  schema: string;
}

/** The migrated database under a store (for the store itself and for `cadre migrate`). */
export async function openPostgres(location: PostgresLocation): Promise<OpenPostgres> {
  const where = redactUrl(location.url);
  if (!isPostgresUrl(location.url))
    throw new StoreError(`not a PostgreSQL URL: ${where} (expected postgres://…)`);
  if (location.schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(location.schema)) {
    throw new StoreError(
      `schema "${location.schema}" is not a plain identifier (letters, digits, _; at most 63)`,
    );
  }
  const { Pool } = await loadPg();
  const pool = new Pool({
    connectionString: location.url,
    max: location.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
    application_name: "cadre",
    types,
  });
  // An idle connection that breaks (server restart, network) is dropped by the pool and the next
  // query opens a new one; without a listener, pg's 'error' event would end the process.
  pool.on("error", () => {});
  pool.on("connect", preparingStatements);
  const schema = location.schema;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      // Per connection, so that every query of the store resolves its tables in the one schema.
      ...(schema !== undefined
        ? {
            onCreateConnection: (c) =>
              c.executeQuery(CompiledQuery.raw(`set search_path to ${quoteIdent(schema)}`)).then(() => {}),
          }
        : {}),
    }),
  });
  try {
    const resolved = schema ?? (await currentSchema(db));
    const adapter = postgresAdapter(resolved);
    await migrateExclusively(db, adapter, resolved, schema !== undefined);
    return { db, adapter, schema: resolved };
  } catch (error) {
    await db.destroy().catch(() => {});
    if (error instanceof StoreError) throw error;
    throw new StoreError(`cannot open PostgreSQL store at ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema)
    throw new StoreError("the connection's search_path names no existing schema; create it or pass a schema");
  return schema;
}

/**
 * Several instances may start at once against an empty database: one session-level advisory lock
 * per schema makes them migrate one after the other (the later ones then find nothing to do).
 * Everything runs on the one connection that holds the lock, so a pool of one suffices.
 */
async function migrateExclusively(
  db: Kysely<Database>,
  adapter: DialectAdapter,
  schema: string,
  create: boolean,
): Promise<void> {
  await db.connection().execute(async (conn) => {
    const key = sql`${LOCK_CLASS.migrate}::int, hashtext(${schema})`;
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      if (create) await sql`create schema if not exists ${sql.id(schema)}`.execute(conn);
      await migrate(conn, adapter);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
