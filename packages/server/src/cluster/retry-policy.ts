// Which failed wakes are tried again. Only failures that did nothing: a run that called no tool
// (so no hire, no approval, nothing written on the agent's behalf) and failed on a transient
// provider error, or a wake that failed before its run started on something other than bad input.
// Anything else ends the wake: a retry must never risk doing a side effect twice.
import { ProviderError, UserInputError } from "@cadre/core";
import { StoreError, type RunEventRow } from "@cadre/store";

/** How providers word a failure that may pass: rate limits, overload, 5xx, timeouts, network. */
const TRANSIENT =
  /\b(408|409|425|429|5\d\d)\b|overloaded|rate.?limit|too many requests|temporar|timed? ?out|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|EPIPE|socket hang up|network/i;

interface ErrorEventData {
  type?: unknown;
  message?: unknown;
  code?: unknown;
  retryable?: unknown;
}

function transientError(data: ErrorEventData): boolean {
  if (data.retryable === true) return true;
  if (data.retryable === false) return false;
  return data.code === "provider_error" && typeof data.message === "string" && TRANSIENT.test(data.message);
}

/** A failed run is retryable when it called no tool and one of its errors is transient. */
export function isRetryableRun(events: readonly RunEventRow[]): boolean {
  if (events.some((e) => e.type === "tool_use" || e.type === "tool_result")) return false;
  return events.some((e) => e.type === "error" && transientError(e.data as ErrorEventData));
}

/** A wake that failed before its run started: bad input never passes by itself; the rest may. */
export function isRetryableStartFailure(error: unknown): boolean {
  if (error instanceof UserInputError) return false;
  if (error instanceof ProviderError) return error.retryable;
  return error instanceof StoreError;
}
