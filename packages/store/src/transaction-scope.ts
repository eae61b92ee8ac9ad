// Which code runs inside a store transaction. A transaction holds the write lock (SQLite) or a
// serializable snapshot (PostgreSQL) until it ends, so filesystem or network work inside one makes
// every other writer wait for it; such work belongs before the transaction or after it.
// `KyselyStore.transaction` runs its callback in this scope; work that must never happen inside one
// (connector probes, and in tests every synchronous fs call: see testing/no-io-in-transactions.ts)
// asks `insideTransaction()` or calls `forbidInsideTransaction`.
import { AsyncLocalStorage } from "node:async_hooks";

interface Scope {
  /** Cleared when the transaction ends: a timer started inside it may outlive it. */
  open: boolean;
}

const scope = new AsyncLocalStorage<Scope>();

/** True while the caller runs (directly or through awaits) inside a store transaction's callback. */
export function insideTransaction(): boolean {
  return scope.getStore()?.open === true;
}

/** Runs `fn` as the body of a transaction: `insideTransaction()` is true in it until it settles. */
export async function inTransactionScope<T>(fn: () => Promise<T>): Promise<T> {
  const current: Scope = { open: true };
  try {
    return await scope.run(current, fn);
  } finally {
    current.open = false;
  }
}

/** A report of work done inside a transaction that must not be (what, and the stack that did it). */
export interface TransactionViolation {
  what: string;
  stack: string;
}

const listeners = new Set<(violation: TransactionViolation) => void>();

/** Called with every violation reported by `forbidInsideTransaction` (the test guard listens). */
export function onTransactionViolation(listener: (violation: TransactionViolation) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Our bug: filesystem or network work reached from inside a store transaction. */
export class WorkInsideTransactionError extends Error {
  constructor(what: string) {
    super(`${what} was called inside a store transaction; do it before the transaction or after it`);
    this.name = "WorkInsideTransactionError";
  }
}

/**
 * Refuses `what` inside a transaction: reports it to the listeners and throws. Probes call it first,
 * so a caller that catches the error still leaves a report behind for the test guard.
 */
export function forbidInsideTransaction(what: string): void {
  if (!insideTransaction()) return;
  const violation = { what, stack: new Error(what).stack ?? what };
  for (const listener of listeners) listener(violation);
  throw new WorkInsideTransactionError(what);
}
