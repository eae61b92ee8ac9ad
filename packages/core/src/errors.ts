// The error classes of Cadre, split by who is at fault. Every layer throws one of these; the
// CLI and the server map them to exit codes / HTTP statuses in one place each.

/** The caller gave bad input. Message says what was wrong and what is allowed. Exit 2 / HTTP 4xx. */
export class UserInputError extends Error {
  readonly fields: Record<string, string> | undefined;
  constructor(message: string, fields?: Record<string, string>) {
    super(message);
    this.name = "UserInputError";
    this.fields = fields;
  }
}

/** A thing the caller named does not exist. HTTP 404. */
export class NotFoundError extends UserInputError {
  constructor(message: string) {
    super(message);
    this.name = "NotFoundError";
  }
}

/** The request is valid but conflicts with current state (e.g. an approval already decided). HTTP 409. */
export class ConflictStateError extends UserInputError {
  constructor(message: string) {
    super(message);
    this.name = "ConflictStateError";
  }
}

/** A model provider or external harness misbehaved (network, 5xx, malformed stream). */
export class ProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable ?? false;
  }
}

/** Our bug: an invariant broke. Never shown as the user's fault. */
export class InternalError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "InternalError";
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
