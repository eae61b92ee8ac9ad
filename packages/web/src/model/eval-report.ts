// An evaluation report (`report.json`, written by `cadre eval run`) turned into table rows and chart
// series. Its types are the harness's own report schema's (@cadre/evals/report-schema); the file is
// read against that schema by eval-report-read.ts, loaded only when a report is opened.
import type { EvalReport, GateId, ScenarioComparison } from "@cadre/evals/report-schema";
import { formatPercent } from "./format.js";

export type { EvalReport, GateId };
export type ScenarioResult = ScenarioComparison;
type Side = ScenarioComparison["baseline"];

/** The gates in the report's order (G1–G5, as the schema the report was read with orders them). */
export function gateIds(r: EvalReport): GateId[] {
  return Object.keys(r.gates) as GateId[];
}

// In the reader's locale, as every figure of the dashboard (model/format.ts).
const pct = (x: number | null) => formatPercent(x, 1);
const two = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const one = new Intl.NumberFormat(undefined, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  signDisplay: "always",
});
const fixed = (x: number) => two.format(x);
const points = (x: number) => `${one.format(x * 100)} pt`;

/**
 * The per-scenario table, the columns of the harness's own reports: a short heading that fits one
 * line at desktop width, what it means in full (the heading's tooltip and the table's key), and
 * whether its cells are figures (right-aligned, so digits line up).
 */
export const SCENARIO_COLUMNS: ReadonlyArray<{ label: string; title: string; num?: boolean }> = [
  { label: "scenario", title: "the scenario's id" },
  { label: "mode", title: "the CEO's mode in the scenario's state" },
  { label: "hires (band)", title: "median hires, baseline → candidate (the baseline's band)", num: true },
  { label: "roles J/prec.", title: "roles hired: Jaccard with the baseline / precision", num: true },
  { label: "params", title: "tool calls with valid parameters / all", num: true },
  {
    label: "tool cov.",
    title: "tool coverage: share of the candidate's hires made through hire_agent",
    num: true,
  },
  { label: "cue", title: "cue tokens: tokens of the initial cue, baseline → candidate", num: true },
  { label: "cache Δ", title: "cache hit rate, candidate minus baseline, in points", num: true },
  { label: "pass^k", title: "pass^k (k, passing samples c of n)", num: true },
  { label: "flaky", title: "flakiness: how often the samples of a scenario disagree", num: true },
  {
    label: "result",
    title:
      "pass or FAIL when behaviour was measured; plumbing ok or not measured when it was not (a scripted model); incomplete with fewer samples than pass^k's k",
  },
];

export function scenarioRow(s: ScenarioResult): string[] {
  return [
    s.id,
    s.mode,
    `${s.baseline.medianHires} → ${s.candidate.medianHires} (${s.hireBand[0]}–${s.hireBand[1]})`,
    `${fixed(s.functionJaccard)} / ${pct(s.functionPrecision)}`,
    `${s.params.valid}/${s.params.total}`,
    pct(s.candidate.toolCoverage),
    `${s.baseline.cueTokens} → ${s.candidate.cueTokens}`,
    points(s.cache.delta),
    `${fixed(s.passK)} (k=${s.k}, ${s.c}/${s.n})`,
    fixed(s.flakiness),
    s.result === "fail" ? "FAIL" : s.result,
  ];
}

/** Chart series over the scenarios (x = scenario position, labelled by id). */
export interface ScenarioSeries {
  labels: string[];
  x: number[];
  baseline: number[];
  candidate: number[];
}

export function hireSeries(r: EvalReport): ScenarioSeries {
  return series(r, (side) => side.medianHires);
}

export function cacheRateSeries(r: EvalReport): ScenarioSeries {
  return series(r, (side) => Math.round(side.cacheHitRate * 1000) / 10);
}

function series(r: EvalReport, pick: (side: Side) => number): ScenarioSeries {
  return {
    labels: r.scenarios.map((s) => s.id),
    x: r.scenarios.map((_, i) => i),
    baseline: r.scenarios.map((s) => pick(s.baseline)),
    candidate: r.scenarios.map((s) => pick(s.candidate)),
  };
}

export function summaryLines(r: EvalReport): Array<[string, string]> {
  return [
    [
      "result",
      r.complete
        ? "all gates pass"
        : r.passed
          ? "no gate failed; some gates have no verdict"
          : "a gate fails",
    ],
    ["evidence", `${r.measurement.source}: ${r.measurement.note}`],
    [
      "candidate",
      `${r.candidate.profile} on ${r.candidate.connector}, ${r.candidate.samples} sample(s) per scenario, seed ${r.candidate.seed}${r.candidate.break ? `, break ${r.candidate.break}` : ""}`,
    ],
    [
      "baseline",
      `${r.baseline.profile} on ${r.baseline.connector}, ${r.baseline.samples} sample(s), recorded ${r.baseline.createdAt}`,
    ],
    ["tool coverage", pct(r.toolCoverage)],
    ["initial cue", `${r.baselineCueTokens} → ${r.cueTokens} tokens`],
    ["cache hit rate", `${pct(r.cacheHitRate.baseline)} → ${pct(r.cacheHitRate.candidate)}`],
  ];
}
