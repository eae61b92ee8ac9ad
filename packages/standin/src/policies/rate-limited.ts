// rateLimited(policy, …): a rate-limited API in front of any policy. The model calls it picks get
// the vendor's 429 with a `retry-after` (each wire renders its own body); every other call is
// answered by `policy`, which sees its own call index (429s not counted), as if it had never been
// refused. Tests of back-off and adaptive concurrency use it (evals' rate gateway).
import type { Policy } from "../types.js";

export interface RateLimitOptions {
  /** 0-based indexes, among all model calls the server received, that get a 429. */
  limited: readonly number[] | ((callIndex: number) => boolean);
  /** Sent as `retry-after` (seconds; fractions keep tests short). Omit to send none. */
  retryAfterSeconds?: number;
}

export function rateLimited(policy: Policy, options: RateLimitOptions): Policy {
  const picks =
    typeof options.limited === "function"
      ? options.limited
      : (i: number) => (options.limited as readonly number[]).includes(i);
  let refused = 0;
  return (request, context) => {
    if (picks(context.callIndex)) {
      refused++;
      return {
        type: "error",
        error: { kind: "rate_limit" },
        ...(options.retryAfterSeconds !== undefined ? { retryAfterSeconds: options.retryAfterSeconds } : {}),
      };
    }
    return policy(request, { ...context, callIndex: context.callIndex - refused });
  };
}
