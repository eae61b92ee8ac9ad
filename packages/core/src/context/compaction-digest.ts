// MC-8: the host only consumes compaction_start/compaction_end for UI, usage and digests. This is
// that digest: plain data, one per session controller.

import type { CompactionFailureClass } from "./classify-compaction-failure.js";

export type CompactionResult = "ok" | CompactionFailureClass | "interrupted";

export interface CompactionDigest {
  /** Compactions that ended (any result). */
  readonly count: number;
  readonly succeeded: number;
  readonly lastResult?: CompactionResult;
  readonly lastReason?: string;
  readonly tokensBefore?: number;
  readonly tokensAfter?: number;
}

export const EMPTY_COMPACTION_DIGEST: CompactionDigest = Object.freeze({ count: 0, succeeded: 0 });

export function recordCompaction(
  digest: CompactionDigest,
  result: CompactionResult,
  reason: string,
  tokens: { tokensBefore?: number; tokensAfter?: number },
): CompactionDigest {
  return Object.freeze({
    count: digest.count + 1,
    succeeded: digest.succeeded + (result === "ok" ? 1 : 0),
    lastResult: result,
    lastReason: reason,
    tokensBefore: tokens.tokensBefore,
    tokensAfter: tokens.tokensAfter,
  });
}
