// Summaries of repeated measurements for `npm run bench`: the median (robust to one disturbed
// round on a shared machine) and the range (how far the rounds disagreed), never the best round.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function range(values: readonly number[]): [number, number] {
  return [Math.min(...values), Math.max(...values)];
}

/**
 * Paired rounds of a candidate and its baseline: value and baseline are the medians of each side,
 * ratio is value ÷ baseline, and `range` is the lowest and highest per-round ratio (each round's
 * candidate ÷ the baseline measured right beside it).
 */
export function paired(rounds: ReadonlyArray<{ value: number; baseline: number }>) {
  const value = median(rounds.map((r) => r.value));
  const baseline = median(rounds.map((r) => r.baseline));
  return {
    value,
    baseline,
    range: range(rounds.map((r) => (r.baseline !== 0 ? r.value / r.baseline : 0))),
    n: rounds.length,
  };
}
