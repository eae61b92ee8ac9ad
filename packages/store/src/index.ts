// @cadre/store: persistence behind one interface (types.ts). SQLite is the embedded default;
// another dialect only needs its own open function and DialectAdapter.
import { KyselyStore } from "./kysely-store.js";
import { sql } from "kysely";
import { StoreError } from "./errors.js";
import { migrate, pendingMigrations } from "./migrations.js";
import { openPostgresStore, type PostgresLocation } from "./postgres.js";
import { openSqlite, sqliteAdapter, type SqliteLocation } from "./sqlite.js";
import type { Store } from "./types.js";

export * from "./types.js";
export { decodeCursor, DEFAULT_PAGE_LIMIT, encodeCursor, MAX_PAGE_LIMIT, pageOfRows } from "./page.js";
export { MIGRATION_NAMES } from "./migrations.js";
export { actingAs, actingStore, currentAudit, type AuditContext } from "./audit-context.js";
export { AUDIT_RULES, READ_METHODS, type AuditRule, type WriteMethod } from "./audit-catalog.js";
export { ConflictError, StoreError } from "./errors.js";
export {
  forbidInsideTransaction,
  insideTransaction,
  onTransactionViolation,
  type TransactionViolation,
  WorkInsideTransactionError,
} from "./transaction-scope.js";
export { isPostgresUrl, redactUrl, type PostgresLocation } from "./postgres.js";
export { feedChannel, sqlState } from "./postgres-adapter.js";
export { PgNotifications, storeSchema } from "./postgres-notifications.js";
export {
  copySqliteToPostgres,
  CopyMismatchError,
  sidesMatch,
  TargetNotEmptyError,
  type CopyOptions,
  type CopyReport,
  type TableReport,
} from "./postgres-copy.js";
/** For tests and benchmarks: a PostgreSQL server of its own, from the local binaries. */
export { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from "./postgres-throwaway.js";

/** A SQLite file (or memory), or a PostgreSQL server: `{ url: "postgres://…" }`. */
export type StoreOptions = SqliteLocation | PostgresLocation;

/** Opens (creating if needed) a store and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if ("url" in options) return openPostgresStore(options);
  const db = openSqlite(options);
  try {
    // Processes opening a new file at once (concurrent `cadre demo`s) migrate one after the other:
    // under SQLite's write lock, the later ones find nothing left to do. An up-to-date file is only
    // read, so opening one never needs to write; a read-only one is never migrated.
    const pending = await pendingMigrations(db, sqliteAdapter);
    if (pending > 0 && "path" in options && options.readonly)
      throw new StoreError(
        `the store at ${options.path} was written by an older Cadre (${pending} migration(s) behind) and is opened read-only; run a command that writes to it first (e.g. cadre serve, or cadre demo)`,
      );
    if (pending > 0) {
      await db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          await migrate(conn, sqliteAdapter);
          await sql`commit`.execute(conn);
        } catch (error) {
          await sql`rollback`.execute(conn).catch(() => {});
          throw error;
        }
      });
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new KyselyStore(db, sqliteAdapter);
}
