// Trajectory match modes (as agentevals names them), over path-independent steps such as
// "hire:engineering" or "file:approve_ceo_strategy":
//   strict    — the same steps in the same order;
//   unordered — the same steps, any order (multisets equal);
//   subset    — every candidate step appears in the reference (candidate ⊆ reference);
//   superset  — every reference step appears in the candidate (candidate ⊇ reference).
export const TRAJECTORY_MODES = ["strict", "unordered", "subset", "superset"] as const;
export type TrajectoryMode = (typeof TRAJECTORY_MODES)[number];

function counts(steps: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of steps) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
}

function within(small: readonly string[], big: readonly string[]): boolean {
  const have = counts(big);
  for (const [step, n] of counts(small)) if ((have.get(step) ?? 0) < n) return false;
  return true;
}

export function matchTrajectory(
  candidate: readonly string[],
  reference: readonly string[],
  mode: TrajectoryMode,
): boolean {
  switch (mode) {
    case "strict":
      return candidate.length === reference.length && candidate.every((s, i) => s === reference[i]);
    case "unordered":
      return candidate.length === reference.length && within(candidate, reference);
    case "subset":
      return within(candidate, reference);
    case "superset":
      return within(reference, candidate);
  }
}

/** A candidate matches a recorded baseline when it matches at least one of its samples. */
export function matchesAny(
  candidate: readonly string[],
  references: ReadonlyArray<readonly string[]>,
  mode: TrajectoryMode,
): boolean {
  return references.some((r) => matchTrajectory(candidate, r, mode));
}
