// The per-scenario row every report shows, computed once.
import type { ScenarioComparison } from "../compare/scenario.js";
import { fixed, mark, pct, signedPoints } from "./format.js";

export const SCENARIO_HEADER = [
  "scenario",
  "mode",
  "hires base→cand (band)",
  "roles J/prec",
  "params",
  "tool cov",
  "cue",
  "cache Δ",
  "pass^k",
  "flaky",
  "result",
];

export function scenarioRow(c: ScenarioComparison): string[] {
  return [
    c.id,
    c.mode,
    `${c.baseline.medianHires} → ${c.candidate.medianHires} (${c.hireBand[0]}–${c.hireBand[1]})`,
    `${fixed(c.functionJaccard)}/${pct(c.functionPrecision)}`,
    `${c.params.valid}/${c.params.total}`,
    pct(c.candidate.toolCoverage),
    `${c.baseline.cueTokens}→${c.candidate.cueTokens}`,
    signedPoints(c.cache.delta),
    `${fixed(c.passK)} (k=${c.k}, ${c.c}/${c.n})`,
    fixed(c.flakiness),
    mark(c.passed),
  ];
}
