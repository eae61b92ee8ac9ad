// The per-scenario row every report shows, computed once.
import type { ScenarioComparison } from "../compare/scenario.js";
import { fixed, pct, scenarioMark, signedPoints } from "./format.js";

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
  "differs in",
];

/** The dimensions some candidate sample failed, by name ("–" for none). */
export function differsIn(c: ScenarioComparison): string {
  const failed = c.dimensions.filter((d) => d.failed > 0);
  return failed.length === 0 ? "–" : failed.map((d) => `${d.label} ${d.failed}/${c.n}`).join(", ");
}

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
    scenarioMark(c.result),
    differsIn(c),
  ];
}
