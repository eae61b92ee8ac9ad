// SQLite (better-sqlite3), the embedded default: the connection setup and its DialectAdapter.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import SqliteDatabase from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { attachDirect, type ConnectionRunner, runStatement, type Statement } from "./direct.js";
import { StoreError } from "./errors.js";
import type { Database } from "./schema.js";

/**
 * A file (created with its directory unless `readonly`), or memory. `readonly`: the file must exist;
 * nothing is written — no directory, no journal, no migration — so it works on a read-only data dir.
 */
export type SqliteLocation = { path: string; readonly?: boolean } | { memory: true };

export const sqliteAdapter: DialectAdapter = {
  name: "sqlite",
  // SQLite has no JSON type; values are kept as their serialised text.
  jsonType: "text",
  autoIncrement: (column) => column.autoIncrement(),
  encodeJson: (value) => JSON.stringify(value ?? null),
  decodeJson(stored) {
    if (typeof stored !== "string") throw new StoreError(`expected JSON text, got ${typeof stored}`);
    return JSON.parse(stored);
  },
  // better-sqlite3 refuses to bind JS booleans; SQLite stores them as 0/1.
  encodeBool: (value) => (value ? 1 : 0),
  decodeBool: (stored) => stored === true || stored === 1,
  constraintViolation(error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE") return "unique";
    if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") return "foreign-key";
    return undefined;
  },
};

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE), not at their first write:
 * a transaction that reads, then writes (find-or-create, check-then-hire) is then atomic across
 * processes too. A deferred one would read, then fail to upgrade when another process wrote meanwhile.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  /** Flows holding the one connection or waiting for it: none means a statement may run at once (direct.ts). */
  claims = 0;

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.claims++;
    try {
      return await super.acquireConnection();
    } catch (error) {
      this.claims--;
      throw error;
    }
  }

  override async releaseConnection(): Promise<void> {
    this.claims--;
    await super.releaseConnection();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  driver: ImmediateSqliteDriver | undefined;
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createDriver(): Driver {
    this.driver = new ImmediateSqliteDriver(this.settings);
    return this.driver;
  }
}

/**
 * The connection as Kysely sees it, with each statement prepared once: Kysely prepares the SQL of
 * every query it runs, and SQLite's prepare (parse and plan) costs more than running a small
 * statement. Statements are keyed by their SQL text; the cache is bounded (a store's queries are
 * a few hundred texts; beyond that it starts over). Kysely runs one query at a time on the
 * connection, so a cached statement is never in use twice at once.
 */
export function cachingStatements(
  db: SqliteDatabase.Database,
  limit = 1000,
): SqliteDialectConfig["database"] {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        if (cache.size >= limit) cache.clear();
        statement = db.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
    close() {
      cache.clear();
      db.close();
    },
  } as SqliteDialectConfig["database"];
}

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 15_000;

/**
 * A WAL database (every Cadre store is one) is read through its `-shm` file, which SQLite must be
 * able to create. In a directory nobody may write to, with no writer (no `-wal` file, so every
 * committed page is in the main file), the file's bytes are read instead and opened in memory:
 * the same data, read-only. Its header is marked rollback-journal so SQLite reads it without WAL.
 */
function openReadonly(path: string): SqliteDatabase.Database {
  const db = new SqliteDatabase(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.prepare("select count(*) from sqlite_master").get();
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    const unwritableDir =
      code === "SQLITE_READONLY_DIRECTORY" || code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY";
    if (!unwritableDir || existsSync(`${path}-wal`)) throw error;
    const bytes = readFileSync(path);
    // Bytes 18 and 19: file format write/read versions, 2 for WAL, 1 for a rollback journal.
    if (bytes.length >= 20) bytes[18] = bytes[19] = 1;
    return new SqliteDatabase(bytes, { readonly: true });
  }
}

/**
 * Switching a new file to WAL needs a lock SQLite does not wait for with its busy handler: when
 * several processes open the same fresh data dir at once, all but one get SQLITE_BUSY here. The
 * switch is retried for as long as a statement would wait; a file already in WAL needs no lock.
 */
function enterWal(db: SqliteDatabase.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      if (db.pragma("journal_mode", { simple: true }) === "wal") return;
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const busy = code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

export function openSqlite(location: SqliteLocation): Kysely<Database> {
  const filename = "path" in location ? location.path : ":memory:";
  let db: SqliteDatabase.Database | undefined;
  try {
    if ("path" in location && location.readonly) {
      db = openReadonly(location.path);
      db.pragma("foreign_keys = ON");
      return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: db }) });
    }
    if ("path" in location) mkdirSync(dirname(location.path), { recursive: true });
    db = new SqliteDatabase(filename, { timeout: BUSY_TIMEOUT_MS });
    // WAL lets readers (e.g. a CLI) run while another process (e.g. the server) writes.
    enterWal(db);
    // SQLite leaves foreign keys off unless asked, per connection.
    db.pragma("foreign_keys = ON");
  } catch (error) {
    db?.close();
    throw new StoreError(`cannot open SQLite store at ${filename}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const database = cachingStatements(db);
  const dialect = new ImmediateSqliteDialect({ database });
  const kysely = new Kysely<Database>({ dialect });
  const statement = (sql: string) => (database as SqliteDatabase.Database).prepare(sql) as Statement;
  const runner: ConnectionRunner = {
    statement,
    // Before Kysely's first query there is no driver yet, and no claim either.
    run: (sql, params) =>
      (dialect.driver?.claims ?? 0) === 0 ? runStatement(statement(sql), params) : undefined,
  };
  attachDirect(kysely, runner);
  return kysely;
}
