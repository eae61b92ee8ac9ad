// The only errors the store throws. Callers catch ConflictError to report a duplicate; anything else
// is a StoreError, i.e. our bug or a storage failure, and should surface as such.
import type { DialectAdapter } from "./dialect.js";

export class StoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreError";
  }
}

/** A unique constraint was violated: the record (e.g. an agent id) already exists. */
export class ConflictError extends StoreError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ConflictError";
  }
}

/**
 * Turns whatever a query threw into a store error about `subject` (e.g. `agent "a1"`). The one place
 * where driver errors are mapped; store errors pass through unchanged so that nesting is harmless.
 */
export function toStoreError(error: unknown, subject: string, adapter: DialectAdapter): StoreError {
  if (error instanceof StoreError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  switch (adapter.constraintViolation(error)) {
    case "unique":
      return new ConflictError(`${subject} already exists`, { cause: error });
    case "foreign-key":
      return new StoreError(`${subject} refers to a record that does not exist (${detail})`, {
        cause: error,
      });
    default:
      return new StoreError(`storage failure on ${subject}: ${detail}`, { cause: error });
  }
}
