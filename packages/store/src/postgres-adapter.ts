// PostgreSQL's DialectAdapter: every way the store's PostgreSQL behaviour differs from SQLite's is
// decided here (JSON, booleans, ids, constraint errors, transaction isolation, feed ordering).
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { StoreError } from "./errors.js";

/** SQLSTATEs after which the whole transaction can simply run again. */
const RETRYABLE = new Set([
  "40001", // serialization_failure: a concurrent transaction made this one's reads stale
  "40P01", // deadlock_detected: PostgreSQL aborted this one to break the cycle
]);
const MAX_ATTEMPTS = 30;

/** The first SQLSTATE found on the error or its causes (the store wraps driver errors). */
export function sqlState(error: unknown): string | undefined {
  for (
    let e: unknown = error, depth = 0;
    e !== null && typeof e === "object" && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The LISTEN/NOTIFY channel announcing feed commits of the store in `schema`; the payload is a company id. */
export function feedChannel(schema: string): string {
  const channel = `cadre_feed.${schema}`;
  // Channel names are identifiers: at most 63 bytes.
  return Buffer.byteLength(channel) <= 63
    ? channel
    : `cadre_feed.${createHash("sha256").update(schema).digest("hex").slice(0, 40)}`;
}

/** Key spaces of the two-int advisory locks, so that ours never collide with another program's. */
export const LOCK_CLASS = { migrate: 0x43414452, feed: 0x43414453 } as const;

/**
 * @param schema the schema holding the store's tables; it namespaces the lock keys, so that two
 *   stores in one database never wait on each other.
 */
export function postgresAdapter(schema: string): DialectAdapter {
  return {
    name: "postgres",
    // `json`, not `jsonb`: it keeps the text as written (key order, number spelling), so a value
    // reads back exactly as SQLite returns it and `cadre migrate` can compare the two byte for byte.
    jsonType: "json",
    // BY DEFAULT rather than ALWAYS: `cadre migrate` inserts the ids it copies.
    autoIncrement: (column) => column.generatedByDefaultAsIdentity(),
    encodeJson: (value) => JSON.stringify(value ?? null),
    decodeJson(stored) {
      // The pool's type parser leaves json as text (see postgres.ts), as SQLite does.
      if (typeof stored !== "string") throw new StoreError(`expected JSON text, got ${typeof stored}`);
      return JSON.parse(stored);
    },
    encodeBool: (value) => value,
    decodeBool: (stored) => stored === true,
    constraintViolation(error) {
      const code = sqlState(error);
      if (code === "23505") return "unique";
      if (code === "23503") return "foreign-key";
      return undefined;
    },
    // SERIALIZABLE by default: the company rules read, check, then write in one transaction (team
    // size, unique names); on SQLite writers queue, here PostgreSQL detects the conflict and one of
    // the two transactions runs again, seeing the other's writes. READ COMMITTED where the writes
    // carry their own conditions and locks: it never conflicts, but a deadlock is still retried.
    async transaction(db, fn, isolation) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().setIsolationLevel(isolation).execute(fn);
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
          // Jittered and growing, so that the same contenders do not collide again in step.
          await sleep(Math.random() * Math.min(200, 2 ** attempt));
        }
      }
    },
    // A transaction-scoped lock per company, taken before the feed ids are drawn: ids then commit
    // in increasing order, which SSE resumption (Last-Event-ID) and `listFeed(afterId)` rely on.
    // The notification is the transaction's too: sent on commit (once per company, however many
    // rows), never for a rollback; it names the company, listeners read the rows from the store.
    async beforeFeedWrite(trx, companyIds) {
      // One order for everyone (sorted), so that two multi-company appends cannot deadlock.
      for (const companyId of [...companyIds].sort()) {
        await sql`select pg_advisory_xact_lock(${LOCK_CLASS.feed}::int, hashtext(${`${schema}:${companyId}`})), pg_notify(${feedChannel(schema)}, ${companyId})`.execute(
          trx,
        );
      }
    },
    migrationSchema: schema,
  };
}
