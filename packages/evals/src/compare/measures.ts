// The measures behind the comparison: medians of hire counts, the set of functions a team
// covers (department, or inferred from the role title when a path recorded none), Jaccard.
import type { TraceHire } from "../trace/types.js";

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Hire counts "within ±tolerance of the baseline median". For an even number of samples both
 * middle values are medians, so the band runs from the lower one − tolerance to the upper + tolerance.
 */
export function medianBand(values: readonly number[], tolerance: number): [number, number] {
  if (values.length === 0) return [0, tolerance];
  const s = [...values].sort((a, b) => a - b);
  const lower = s[Math.floor((s.length - 1) / 2)] as number;
  const upper = s[Math.floor(s.length / 2)] as number;
  return [Math.max(0, lower - tolerance), upper + tolerance];
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical (1). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

const ROLE_WORDS: ReadonlyArray<[string, RegExp]> = [
  ["engineering", /\b(cto|technology|technical|engineer(ing)?|developer|software)\b/],
  ["product", /\b(cpo|product)\b/],
  ["design", /\b(design(er)?|ux|creative)\b/],
  ["marketing", /\b(cmo|marketing|growth|brand)\b/],
  ["sales", /\b(sales|revenue|cro|business development)\b/],
  ["operations", /\b(coo|operations|operating|logistics)\b/],
  ["finance", /\b(cfo|finance|financial|accounting)\b/],
  ["legal", /\b(legal|counsel|compliance)\b/],
];

/** The business function of a hire: its department, else the one its role title names. */
export function functionOf(hire: Pick<TraceHire, "department" | "role">): string {
  if (hire.department) return hire.department;
  const role = hire.role.toLowerCase();
  return (
    ROLE_WORDS.find(([, words]) => words.test(role))?.[0] ?? `role:${role.replace(/[^a-z0-9]+/g, " ").trim()}`
  );
}

export function functionsOf(hires: ReadonlyArray<Pick<TraceHire, "department" | "role">>): Set<string> {
  return new Set(hires.map(functionOf));
}

/** Best Jaccard of a candidate team's functions against any baseline sample's. */
export function bestJaccard(
  candidate: ReadonlySet<string>,
  baseline: ReadonlyArray<ReadonlySet<string>>,
): number {
  return baseline.reduce(
    (best, b) => Math.max(best, jaccard(candidate, b)),
    baseline.length === 0 ? 0 : -Infinity,
  );
}

/** Share of a candidate team's functions that the baseline hired in some sample (1 for no hire). */
export function precisionAgainst(
  candidate: ReadonlySet<string>,
  baseline: ReadonlyArray<ReadonlySet<string>>,
): number {
  if (candidate.size === 0) return 1;
  const known = new Set(baseline.flatMap((b) => [...b]));
  return [...candidate].filter((f) => known.has(f)).length / candidate.size;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
