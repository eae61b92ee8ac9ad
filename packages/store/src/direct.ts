// The embedded store's fast path for fixed statements (prepared.ts `run`): SQLite runs a statement
// synchronously, so when nobody holds or waits for the one connection, running it at once is the
// same as Kysely acquiring the connection, running it and releasing it — without the chain of
// promises between (each of which every AsyncLocalStorage in the process pays for). A transaction's
// own statements run at once too: it holds the connection until it ends. Anything else (another
// flow's transaction open, a query queued) goes through Kysely as before.
export interface DirectRunner {
  /** The statement's rows (a `returning` clause's for writes, else none) — or undefined: use Kysely. */
  run(sql: string, params: readonly unknown[]): unknown[] | undefined;
}

/** A prepared statement as better-sqlite3 gives it. */
export interface Statement {
  readonly reader: boolean;
  all(params: readonly unknown[]): unknown[];
  run(params: readonly unknown[]): unknown;
}

/** The runner of the connection itself, which prepares (and caches) its statements. */
export interface ConnectionRunner extends DirectRunner {
  statement(sql: string): Statement;
}

const runners = new WeakMap<object, DirectRunner>();

/** The runner of `db` (a Kysely instance or transaction), if it has one. */
export function directRunner(db: object): DirectRunner | undefined {
  return runners.get(db);
}

/** The connection's runner of `db` (not a transaction's), if it has one. */
export function connectionRunner(db: object): ConnectionRunner | undefined {
  const runner = runners.get(db);
  return runner && "statement" in runner ? (runner as ConnectionRunner) : undefined;
}

export function attachDirect(db: object, runner: DirectRunner): void {
  runners.set(db, runner);
}

/** Runs one statement the way Kysely's SQLite connection does: a reader's rows, else none. */
export function runStatement(statement: Statement, params: readonly unknown[]): unknown[] {
  if (statement.reader) return statement.all(params);
  statement.run(params);
  return [];
}

/**
 * A transaction's runner while its body runs (`open`); after that (a timer the body left behind)
 * its statements go through Kysely, as they did before.
 */
export function transactionRunner(parent: ConnectionRunner, scope: { open: boolean }): DirectRunner {
  return {
    run: (sql, params) => (scope.open ? runStatement(parent.statement(sql), params) : undefined),
  };
}
