// An evaluation report (`report.json`, written by `cadre eval run`) read in the browser: checked
// for the fields the dashboard shows, then turned into table rows and chart series. The shapes are
// the evaluation harness's (packages/evals/src/compare); only what is shown is declared here.

export const GATE_IDS = ["G1", "G2", "G3", "G4", "G5"] as const;
export type GateId = (typeof GATE_IDS)[number];

interface Side {
  samples: number;
  medianHires: number;
  toolCoverage: number | null;
  cueTokens: number;
  cacheHitRate: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  mode: string;
  baseline: Side;
  candidate: Side;
  hireBand: [number, number];
  functionJaccard: number;
  functionPrecision: number;
  params: { valid: number; total: number };
  cache: { baseline: number; candidate: number; delta: number; pass: boolean };
  n: number;
  c: number;
  k: number;
  passK: number;
  flakiness: number;
  passed: boolean;
  reasons: string[];
}

export interface EvalReport {
  schemaVersion: 1;
  kind: "cadre-eval-report";
  createdAt: string;
  baseline: {
    dir: string;
    profile: string;
    connector: string;
    samples: number;
    seed: number;
    createdAt: string;
    break: string | null;
  };
  candidate: { profile: string; connector: string; samples: number; seed: number; break: string | null };
  scenarios: ScenarioResult[];
  toolCoverage: number;
  cueTokens: number;
  baselineCueTokens: number;
  cacheHitRate: { baseline: number; candidate: number };
  gates: Record<GateId, { pass: boolean; evidence: string }>;
  matrix: Array<{ scenario: string; cells: Record<GateId, { pass: boolean | null; evidence: string }> }>;
  passed: boolean;
}

export type ParsedReport = { ok: true; report: EvalReport } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses the text of a report.json; the error names what is missing or wrong. */
export function parseEvalReport(text: string): ParsedReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isObject(value) || value["kind"] !== "cadre-eval-report")
    return {
      ok: false,
      error:
        'not an evaluation report: "kind" must be "cadre-eval-report" (the report.json that `cadre eval run` writes)',
    };
  if (value["schemaVersion"] !== 1)
    return {
      ok: false,
      error: `report schema version ${JSON.stringify(value["schemaVersion"])} is not supported (this dashboard reads version 1)`,
    };
  if (!Array.isArray(value["scenarios"])) return { ok: false, error: '"scenarios" must be a list' };
  if (
    !isObject(value["gates"]) ||
    GATE_IDS.some((g) => !isObject((value as Record<string, Record<string, unknown>>)["gates"]![g]))
  )
    return { ok: false, error: `"gates" must hold ${GATE_IDS.join(", ")}` };
  if (!Array.isArray(value["matrix"])) return { ok: false, error: '"matrix" must be a list' };
  for (const [i, s] of (value["scenarios"] as unknown[]).entries()) {
    if (
      !isObject(s) ||
      typeof s["id"] !== "string" ||
      !isObject(s["baseline"]) ||
      !isObject(s["candidate"]) ||
      !isObject(s["cache"])
    )
      return { ok: false, error: `scenario ${i + 1} lacks its id, baseline, candidate or cache figures` };
  }
  return { ok: true, report: value as unknown as EvalReport };
}

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const fixed = (x: number) => x.toFixed(2);
const points = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} pt`;

/** The per-scenario table, the columns of the harness's own reports. */
export const SCENARIO_COLUMNS = [
  "scenario",
  "mode",
  "hires base → cand (band)",
  "roles J / precision",
  "params",
  "tool coverage",
  "cue tokens",
  "cache Δ",
  "pass^k",
  "flaky",
  "result",
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
    s.passed ? "pass" : "FAIL",
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
    ["result", r.passed ? "all gates pass" : "a gate fails"],
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
