// MC-8: the daily same-model auto-compact threshold. 90% for every harness; an explicit user
// override wins. Pi receives it as a native reserve (contextWindow − reserveTokens = threshold).

export const DEFAULT_COMPACT_THRESHOLD = 0.9;

export function assertValidThreshold(value: number): void {
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new RangeError(`compaction threshold must be in (0, 1], got ${value}`);
  }
}

export function assertValidWindow(contextWindow: number): void {
  if (!Number.isInteger(contextWindow) || contextWindow <= 0) {
    throw new RangeError(`context window must be a positive integer, got ${contextWindow}`);
  }
}

export function effectiveThreshold(override: number | undefined): number {
  return override ?? DEFAULT_COMPACT_THRESHOLD;
}

/** Pi's native `compaction.reserveTokens` for a threshold: Pi compacts at window − reserve. */
export function reserveTokensFor(contextWindow: number, threshold: number): number {
  return contextWindow - floorOfFraction(threshold, contextWindow);
}

/** floor(fraction × tokens), rounding away binary-float noise first (0.29 × 100 is 28.999…). */
export function floorOfFraction(fraction: number, tokens: number): number {
  return Math.floor(Math.round(fraction * tokens * 1e6) / 1e6);
}
