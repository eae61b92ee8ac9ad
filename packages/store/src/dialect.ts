// The few things SQLite and PostgreSQL do differently. Queries and migrations are written once
// against Kysely's builder; each dialect supplies one of these adapters for the rest.
import type { ColumnDefinitionBuilder, ColumnDataType, Kysely, SqlBool, Transaction } from "kysely";
import type { Database } from "./schema.js";
import type { TransactionOptions } from "./types.js";

export type Isolation = NonNullable<TransactionOptions["isolation"]>;

/** Which kind of constraint a driver error reports; undefined for any other failure. */
export type ConstraintViolation = "unique" | "foreign-key" | undefined;

export interface DialectAdapter {
  readonly name: "sqlite" | "postgres";
  /** Column type for JSON values. */
  readonly jsonType: ColumnDataType;
  /** Makes an integer primary-key column generate increasing ids. */
  autoIncrement(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  encodeJson(value: unknown): string;
  decodeJson(stored: unknown): unknown;
  encodeBool(value: boolean): SqlBool;
  decodeBool(stored: SqlBool): boolean;
  /** Classifies a driver error, so that constraint violations map to store errors in one place. */
  constraintViolation(error: unknown): ConstraintViolation;
  /**
   * Runs `fn` in one transaction that behaves as if transactions ran one at a time (the company
   * rules check, then write, inside one transaction), retrying it when the database reports a
   * conflict: `fn` may then run more than once, so it must touch nothing outside the transaction.
   * Absent: a plain transaction (SQLite already runs one writer at a time).
   */
  transaction?<T>(
    db: Kysely<Database>,
    fn: (trx: Transaction<Database>) => Promise<T>,
    isolation: Isolation,
  ): Promise<T>;
  /**
   * Called inside a transaction before it appends to these companies' feeds (run events, activity).
   * PostgreSQL makes their ids commit in increasing order, so a reader resuming after an id never
   * misses a row committed later with a smaller id, and announces the commit to every process
   * listening (LISTEN/NOTIFY). Absent: nothing to do (one writer at a time, one process).
   */
  beforeFeedWrite?(trx: Kysely<Database>, companyIds: readonly string[]): Promise<void>;
  /** Schema of Kysely's migration tables; absent: the connection's default. */
  readonly migrationSchema?: string;
}

/** Runs `fn` in a transaction the adapter's way. */
export function transact<T>(
  db: Kysely<Database>,
  adapter: DialectAdapter,
  fn: (trx: Transaction<Database>) => Promise<T>,
  isolation: Isolation,
): Promise<T> {
  return adapter.transaction ? adapter.transaction(db, fn, isolation) : db.transaction().execute(fn);
}
