// Gates G1–G5 (SPEC C4-8), each decided from the evidence gathered above and reported with it:
// per gate overall, and per scenario as the cells of a matrix.
import type { Recording } from "../recording/types.js";
import type { SuiteResult } from "../runner/run-suite.js";
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { GATE_IDS, type GateCell, type GateId, type GateResult } from "../report/schema.js";
import type { ScenarioComparison } from "./scenario.js";
import type { CompareSettings } from "./settings.js";

export { GATE_IDS, type GateCell, type GateId, type GateResult };

export const GATE_TITLES: Readonly<Record<GateId, string>> = {
  G1: "harness ready and baseline recorded",
  G2: "tool implemented and schema frozen",
  G3: "with the tool available the CEO uses it",
  G4: "hire count, roles and parameters match the baseline after the prompt is slimmed",
  G5: "the legacy path can be retired with no regression",
};

/** A candidate run: a suite's result, whether just run or read back from a recording. */
export type CandidateRun = SuiteResult;

export interface GateInput {
  baseline: Recording;
  candidate: CandidateRun;
  comparisons: ScenarioComparison[];
  settings: CompareSettings;
  /** Tool name → schema hash in this build. */
  codeSchemas: Record<string, string>;
}

export interface Gates {
  gates: Record<GateId, GateResult>;
  matrix: Array<{ scenario: string; cells: Record<GateId, GateCell> }>;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const short = (h: string | undefined) => (h ? h.slice(0, 12) : "none");

function g1Cell(input: GateInput, loaded: LoadedScenario): GateCell {
  const id = loaded.scenario.id;
  const recorded = input.baseline.scenarios.find((s) => s.scenario.id === id);
  if (!recorded) return { pass: false, evidence: `not in the baseline` };
  if (recorded.hash !== loaded.hash)
    return {
      pass: false,
      evidence: `changed since the baseline (hash ${short(recorded.hash)} → ${short(loaded.hash)}): re-record`,
    };
  const n = input.candidate.traces.get(id)?.length ?? 0;
  return {
    pass: n > 0,
    evidence: `${input.baseline.traces.get(id)?.length ?? 0} baseline / ${n} candidate samples, definition unchanged`,
  };
}

function g2Cell(input: GateInput, loaded: LoadedScenario): GateCell {
  const code = input.codeSchemas["hire_agent"];
  const traces = input.candidate.traces.get(loaded.scenario.id) ?? [];
  const observed = traces.filter((t) => t.systemPrompt.observed);
  const offered = observed.flatMap((t) => t.tools.filter((tool) => tool.name === "hire_agent"));
  const drifted = offered.filter((tool) => tool.schemaHash !== code);
  if (drifted.length > 0)
    return {
      pass: false,
      evidence: `hire_agent offered with schema ${short(drifted[0]?.schemaHash)} ≠ code ${short(code)}`,
    };
  if (observed.length === 0) return { pass: null, evidence: "no model call observed" };
  if (offered.length === 0)
    return { pass: null, evidence: `hire_agent not offered (0/${observed.length} samples)` };
  return {
    pass: true,
    evidence: `hire_agent offered in ${offered.length}/${observed.length} sample(s), schema ${short(code)} = code`,
  };
}

function isHiringState(c: ScenarioComparison): boolean {
  return c.baseline.medianHires > 0;
}

function g3Cell(c: ScenarioComparison, settings: CompareSettings): GateCell {
  if (!isHiringState(c)) return { pass: null, evidence: "the baseline hires nobody here" };
  const cov = c.candidate.toolCoverage;
  const hires = c.candidate.hireCounts.reduce((a, b) => a + b, 0);
  if (cov === null)
    return {
      pass: false,
      evidence: `no hire in ${c.candidate.samples} sample(s) (baseline median ${c.baseline.medianHires})`,
    };
  return {
    pass: cov >= settings.minToolCoverage,
    evidence: `${c.candidate.toolHires}/${hires} hires via hire_agent (${pct(cov)})`,
  };
}

function g4Cell(c: ScenarioComparison): GateCell {
  return {
    pass: c.behaviourPassed,
    evidence: c.behaviourPassed
      ? `pass^${c.k} ${c.passK.toFixed(2)}; hires ${c.candidate.medianHires} vs ${c.baseline.medianHires} (band ${c.hireBand[0]}–${c.hireBand[1]}); functions Jaccard ${c.functionJaccard.toFixed(2)}, precision ${(c.functionPrecision * 100).toFixed(0)}%; params ${c.params.valid}/${c.params.total}`
      : (c.reasons[0] ?? "failed"),
  };
}

/** G5 weighs the cache rate: when it comes from cassettes, the evidence says it is not live. */
function replayNote(traces: Trace[]): string {
  const replayed = traces.filter((t) => t.source === "replayed").length;
  return replayed === 0
    ? ""
    : ` (usage of ${replayed}/${traces.length} candidate sample(s) replayed from cassettes: recorded, not live)`;
}

function g5Cell(c: ScenarioComparison, traces: Trace[]): GateCell {
  const problems = [
    ...(c.passed ? [] : c.reasons),
    ...(c.candidate.httpHires > 0 ? [`${c.candidate.httpHires} hire(s) still via the legacy HTTP path`] : []),
  ];
  return {
    pass: problems.length === 0,
    evidence:
      problems.length === 0
        ? `no regression; cache ${pct(c.cache.candidate)} vs ${pct(c.cache.baseline)}${replayNote(traces)}`
        : problems.join("; "),
  };
}

export function evaluateGates(input: GateInput): Gates {
  const { baseline, candidate, comparisons, settings, codeSchemas } = input;
  const byId = new Map(comparisons.map((c) => [c.id, c]));
  const matrix = candidate.scenarios.map((loaded) => {
    const c = byId.get(loaded.scenario.id) as ScenarioComparison;
    return {
      scenario: loaded.scenario.id,
      cells: {
        G1: g1Cell(input, loaded),
        G2: g2Cell(input, loaded),
        G3: g3Cell(c, settings),
        G4: g4Cell(c),
        G5: g5Cell(c, candidate.traces.get(loaded.scenario.id) ?? []),
      },
    };
  });
  const cells = (g: GateId) => matrix.map((m) => ({ id: m.scenario, cell: m.cells[g] }));
  const failing = (g: GateId) => cells(g).filter((x) => x.cell.pass === false);
  const list = (xs: Array<{ id: string; cell: GateCell }>) =>
    xs
      .slice(0, 4)
      .map((x) => `${x.id} (${x.cell.evidence})`)
      .join("; ") + (xs.length > 4 ? `; +${xs.length - 4} more` : "");

  // G1
  const m = baseline.manifest;
  const g1Problems: string[] = [];
  if (m.scenarios.length < settings.minScenarios)
    g1Problems.push(
      `the baseline holds ${m.scenarios.length} scenario(s); at least ${settings.minScenarios} are required`,
    );
  if (m.break) g1Problems.push(`the baseline was recorded with the deliberate break "${m.break}"`);
  if (failing("G1").length > 0)
    g1Problems.push(`scenarios without a usable baseline: ${list(failing("G1"))}`);
  const g1: GateResult = {
    pass: g1Problems.length === 0,
    evidence: [
      `baseline ${baseline.dir}: profile ${m.profile} on ${m.connector}, ${m.scenarios.length} scenarios × ${m.samples} samples, seed ${m.seed}, recorded ${m.createdAt}`,
      `candidate ran ${candidate.scenarios.length} scenarios × ${candidate.samples} samples`,
      ...g1Problems,
    ].join("; "),
  };

  // G2
  const g2Problems: string[] = [];
  for (const tool of ["hire_agent", "file_approval"]) {
    const recorded = m.toolSchemas[tool];
    if (!recorded) g2Problems.push(`the baseline records no ${tool} schema`);
    else if (recorded !== codeSchemas[tool])
      g2Problems.push(
        `${tool} schema changed since the baseline (${short(recorded)} → ${short(codeSchemas[tool])}): not frozen`,
      );
  }
  if (failing("G2").length > 0)
    g2Problems.push(`offered schema differs from the code: ${list(failing("G2"))}`);
  const allTraces = [...candidate.traces.values()].flat();
  const observed = allTraces.filter((t) => t.systemPrompt.observed);
  const offeredIn = observed.filter((t) => t.tools.some((tool) => tool.name === "hire_agent")).length;
  const g2: GateResult = {
    pass: g2Problems.length === 0,
    evidence: [
      `hire_agent schema ${short(codeSchemas["hire_agent"])} in code, ${short(m.toolSchemas["hire_agent"])} in the baseline; offered to the model in ${offeredIn}/${observed.length} observed sample(s)`,
      ...g2Problems,
    ].join("; "),
  };

  // G3
  const hires = allTraces.flatMap((t) => t.hires);
  const toolHires = hires.filter((h) => h.via === "tool").length;
  const coverage = hires.length === 0 ? 0 : toolHires / hires.length;
  const hiringStates = cells("G3").filter((x) => x.cell.pass !== null);
  const using = hiringStates.filter((x) => x.cell.pass === true);
  const g3Problems: string[] = [];
  if (using.length < settings.minToolStates)
    g3Problems.push(
      `hire_agent carries ≥${pct(settings.minToolCoverage)} of hires in ${using.length} state(s); ${settings.minToolStates} required`,
    );
  if (coverage < settings.minToolCoverage)
    g3Problems.push(`overall coverage ${pct(coverage)} < ${pct(settings.minToolCoverage)}`);
  if (failing("G3").length > 0) g3Problems.push(`failing states: ${list(failing("G3"))}`);
  const g3: GateResult = {
    pass: g3Problems.length === 0,
    evidence: [
      `${toolHires}/${hires.length} hires via hire_agent (${pct(coverage)}); ${using.length} of ${hiringStates.length} hiring states at ≥${pct(settings.minToolCoverage)}`,
      ...g3Problems,
    ].join("; "),
  };

  // G4
  const cue = Math.max(0, ...allTraces.map((t) => t.cue.tokens));
  const baseCue = Math.max(0, ...[...baseline.traces.values()].flat().map((t) => t.cue.tokens));
  const g4Problems: string[] = [];
  if (cue > settings.maxCueTokens)
    g4Problems.push(`initial cue up to ${cue} tokens > ${settings.maxCueTokens}`);
  if (failing("G4").length > 0)
    g4Problems.push(`behaviour differs in ${failing("G4").length} scenario(s): ${list(failing("G4"))}`);
  const g4: GateResult = {
    pass: g4Problems.length === 0,
    evidence: [
      `cue ${baseCue} → ${cue} tokens (o200k, ≤${settings.maxCueTokens}); ${comparisons.filter((c) => c.behaviourPassed).length}/${comparisons.length} scenarios hold hire count (±${settings.hireTolerance} of the median), roles (every function hired by the baseline, or team Jaccard ≥${settings.functionJaccard}) and parameters at pass^k ≥${settings.minPassK}`,
      ...g4Problems,
    ].join("; "),
  };

  // G5
  const g5Problems: string[] = [];
  const earlier = (["G1", "G2", "G3", "G4"] as const).filter(
    (g) => !{ G1: g1, G2: g2, G3: g3, G4: g4 }[g].pass,
  );
  if (earlier.length > 0) g5Problems.push(`${earlier.join(", ")} must pass first`);
  if (candidate.profile === "legacy") g5Problems.push("the candidate is the legacy profile itself");
  const http = hires.filter((h) => h.via === "http").length;
  if (http > 0) g5Problems.push(`${http} candidate hire(s) still went through the legacy HTTP path`);
  if (failing("G5").length > 0) g5Problems.push(`regressions: ${list(failing("G5"))}`);
  const g5: GateResult = {
    pass: g5Problems.length === 0,
    evidence: [
      `${comparisons.filter((c) => c.passed).length}/${comparisons.length} scenarios without regression (behaviour and cache within ${settings.cacheTolerance * 100} points${replayNote(allTraces)}); ${http} hire(s) via HTTP`,
      ...g5Problems,
    ].join("; "),
  };

  return { gates: { G1: g1, G2: g2, G3: g3, G4: g4, G5: g5 }, matrix };
}
