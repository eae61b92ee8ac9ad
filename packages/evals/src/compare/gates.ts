// Gates G1–G5 (SPEC C4-8), each decided from the evidence gathered above and reported with it:
// per gate overall, and per scenario as the cells of a matrix.
import { findProfileDriver } from "@cadre/company";
import type { Recording } from "../recording/types.js";
import type { SuiteResult } from "../runner/run-suite.js";
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { GATE_IDS, type GateCell, type GateId, type GateResult, type GateSource } from "../report/schema.js";
import type { ScenarioComparison } from "./scenario.js";
import { actionOf } from "./actions.js";
import { DIMENSION_LABELS } from "./dimensions.js";
import type { CompareSettings } from "./settings.js";

export { GATE_IDS, type GateCell, type GateId, type GateResult, type GateSource };

/**
 * Whether behaviour was measured: a scripted model exercises plumbing but does not read the
 * prompt, so G3–G5's behaviour checks computed from it are "not measured" (pass null) — never PASS.
 */
export interface Measurement {
  source: GateSource;
  behaviourMeasured: boolean;
  /** Why behaviour is (not) measured, in words the report prints. */
  note: string;
}

/** The gates that judge behaviour (the rest are plumbing: harness, schemas). */
export const BEHAVIOUR_GATES: readonly GateId[] = ["G3", "G4", "G5"];

export const NOT_MEASURED_SCRIPTED = "behaviour not measured: the offline model is scripted";

/**
 * Why a run's answers are scripted — the offline model, or a model server that announced itself as
 * a stand-in (live or replayed from its cassettes) — or null when they came from a model.
 */
export function scriptedReason(traces: readonly Pick<Trace, "source" | "standin">[]): string | null {
  if (traces.some((t) => t.source === "offline")) return "the offline model is scripted";
  const standin = traces.find((t) => t.standin)?.standin;
  return standin ? `the model server is a stand-in, not a model: ${standin}` : null;
}

/** The note of a scripted run: behaviour is never measured on it, whatever any sensitivity says. */
export function notMeasuredNote(reason: string): string {
  return `behaviour not measured: ${reason}`;
}

/** The source of a run's evidence: scripted (offline, or a stand-in), else replayed or live. */
export function gateSourceOf(traces: Trace[]): GateSource {
  if (scriptedReason(traces) !== null) return "scripted";
  if (traces.some((t) => t.source === "replayed")) return "replayed";
  if (traces.some((t) => t.source === "live")) return "live";
  return "scripted";
}

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
  /** Default: scripted runs unmeasured, live and replayed ones measured. */
  measurement?: Measurement;
}

export interface Gates {
  gates: Record<GateId, GateResult>;
  measurement: Measurement;
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

/** Below this chance, a candidate that never calls a tool the baseline calls has dropped it. */
const DROPPED_CHANCE = 0.05;

/**
 * Tools the baseline calls in most samples that the candidate never calls, where never calling them
 * would be unlikely (< 5 %) for a candidate that calls them as often as the baseline does: one
 * sample without a tool the baseline calls in 5 of 8 is chance; 3 without one it always calls is
 * not. How often the candidate calls them is the tool-call dimension's question, sample by sample.
 */
export function droppedActions(c: ScenarioComparison): ScenarioComparison["actions"] {
  const n = c.candidate.samples;
  return c.actions.filter((a) => {
    const p = a.baseline / Math.max(1, c.baseline.samples);
    return p > 0.5 && a.candidate === 0 && n > 0 && (1 - p) ** n < DROPPED_CHANCE;
  });
}

/** The share of hires made through hire_agent, where the baseline hires; null elsewhere. */
function coverageCell(c: ScenarioComparison, settings: CompareSettings): GateCell {
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

/** G3 per scenario: hires go through hire_agent, and every tool the baseline calls is called. */
function g3Cell(c: ScenarioComparison, settings: CompareSettings): GateCell {
  const coverage = coverageCell(c, settings);
  const used = c.actions.filter((a) => a.baseline * 2 > c.baseline.samples);
  if (coverage.pass === null && used.length === 0)
    return { pass: null, evidence: "the baseline hires nobody and calls no tool here" };
  const dropped = droppedActions(c);
  const tools =
    dropped.length > 0
      ? `tool calls: ${dropped.map((a) => `${a.action} called in ${a.candidate}/${c.candidate.samples} candidate sample(s), ${a.baseline}/${c.baseline.samples} in the baseline`).join("; ")}`
      : used.length > 0
        ? `calls every tool the baseline calls (${used.map((a) => a.action).join(", ")})`
        : null;
  return {
    pass: coverage.pass !== false && dropped.length === 0,
    evidence: [coverage.pass === null ? null : coverage.evidence, tools].filter((x) => x !== null).join("; "),
  };
}

function g4Cell(c: ScenarioComparison): GateCell {
  return {
    pass: c.behaviourVerdict,
    evidence: c.behaviourVerdict
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
    ...(c.verdict ? [] : c.reasons),
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

/** The phase a cue asks the CEO to review ("Review your X operating instructions"); null if none. */
export function cuePhase(cue: string): string | null {
  return /Review your (.+?) operating instructions/.exec(cue)?.[1] ?? null;
}

/**
 * Mode drift (C4-4): the phase the cue names, the phase the prompt's company section states and
 * the mode document the prompt carries must be one. A sample that was sent no prompt is not drift.
 */
export function modeDrift(t: Trace): string | null {
  const p = t.systemPrompt.phases;
  if (!t.systemPrompt.observed || !p) return null;
  const cue = cuePhase(t.cue.text);
  const named = [cue, p.runtime, p.document].filter((x): x is string => x !== null);
  if (new Set(named).size > 1)
    return `cue names "${cue ?? "no phase"}", the prompt states "${p.runtime ?? "no phase"}", its mode document is "${p.document ?? "none"}"`;
  return null;
}

function defaultMeasurement(traces: Trace[]): Measurement {
  const source = gateSourceOf(traces);
  return source === "scripted"
    ? {
        source,
        behaviourMeasured: false,
        note: notMeasuredNote(scriptedReason(traces) ?? "no model answered"),
      }
    : { source, behaviourMeasured: true, note: `behaviour measured on ${source} samples` };
}

type Undecided = NonNullable<GateResult["undecided"]>;

/**
 * A gate from its plumbing problems (they fail whatever the model), its behaviour problems (they
 * count only when behaviour is measured), why the run is too small to decide (`insufficient`), and
 * whether it ran fewer samples than pass^k's k (`incomplete`: a pass on those is no pass, a
 * failure still fails).
 */
function decide(
  m: Measurement,
  parts: {
    head: string;
    plumbing: string[];
    behaviour: string[];
    insufficient?: { kind: Undecided; text: string };
    incomplete?: string;
    behavioural: boolean;
  },
): GateResult {
  const { head, plumbing, behaviour, insufficient, incomplete, behavioural } = parts;
  const verdict = plumbing.length > 0 ? false : insufficient ? null : behaviour.length === 0;
  const measured = !behavioural || m.behaviourMeasured;
  const held = verdict === true && incomplete ? null : verdict;
  const pass = plumbing.length > 0 ? false : !measured ? null : held;
  const undecided: Undecided | null =
    pass !== null || !measured ? null : (insufficient?.kind ?? (incomplete ? "samples" : null));
  const evidence = [
    ...(behavioural && !m.behaviourMeasured ? [m.note] : []),
    head,
    ...plumbing,
    ...(insufficient ? [insufficient.text] : []),
    ...(incomplete ? [incomplete] : []),
    ...behaviour,
  ].join("; ");
  return { pass, measured, source: m.source, verdict, undecided, evidence };
}

export function evaluateGates(input: GateInput): Gates {
  const { candidate, comparisons, settings } = input;
  const allTraces = [...candidate.traces.values()].flat();
  const meas = input.measurement ?? defaultMeasurement(allTraces);
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

  const gates = decideGates(input, meas, allTraces, cells, failing, list);
  // The matrix says the same as the headline: behaviour cells of an unmeasured run are not PASS.
  const shown = meas.behaviourMeasured
    ? matrix
    : matrix.map((row) => ({
        scenario: row.scenario,
        cells: Object.fromEntries(
          GATE_IDS.map((g) => [
            g,
            BEHAVIOUR_GATES.includes(g) && row.cells[g].pass !== null
              ? { pass: null, evidence: `not measured (${meas.source}): ${row.cells[g].evidence}` }
              : row.cells[g],
          ]),
        ) as Record<GateId, GateCell>,
      }));
  return { gates, measurement: meas, matrix: shown };
}

/**
 * Per scenario, the tools the baseline calls in most samples that some observed candidate sample was
 * not offered (hire_agent in hiring states is reported on its own). The offer is code, not the
 * model's choice, so this fails on any connector: a change that drops a tool from a mode's offer.
 */
function withheldTools(
  comparisons: ScenarioComparison[],
  candidate: CandidateRun,
): Array<{ id: string; tools: string[] }> {
  return comparisons.flatMap((c) => {
    const used = c.actions
      .filter((a) => a.baseline * 2 > c.baseline.samples)
      .map((a) => a.action)
      .filter((a) => !(a === "hire_agent" && isHiringState(c)));
    const observed = (candidate.traces.get(c.id) ?? []).filter((t) => t.systemPrompt.observed);
    const tools = used.filter((a) =>
      observed.some((t) => !t.tools.some((tool) => actionOf({ name: tool.name, args: {} }) === a)),
    );
    return tools.length > 0 ? [{ id: c.id, tools }] : [];
  });
}

const DIMENSION_LIST = Object.values(DIMENSION_LABELS).join(", ");

/** Why pass^k could not be computed as asked: scenarios with fewer candidate samples than k. */
function incompleteSamples(comparisons: ScenarioComparison[], settings: CompareSettings): string | undefined {
  const short = comparisons.filter((c) => c.n > 0 && c.n < settings.k);
  if (short.length === 0) return undefined;
  const fewest = Math.min(...short.map((c) => c.n));
  return `pass^${settings.k} needs ${settings.k} samples: ${short.length} scenario(s) ran ${fewest === Math.max(...short.map((c) => c.n)) ? fewest : `as few as ${fewest}`} (run with --samples ${settings.k} or more); the run is incomplete`;
}

function decideGates(
  input: GateInput,
  meas: Measurement,
  allTraces: Trace[],
  cells: (g: GateId) => Array<{ id: string; cell: GateCell }>,
  failing: (g: GateId) => Array<{ id: string; cell: GateCell }>,
  list: (xs: Array<{ id: string; cell: GateCell }>) => string,
): Record<GateId, GateResult> {
  const { baseline, candidate, comparisons, settings, codeSchemas } = input;
  // G1 (plumbing)
  const m = baseline.manifest;
  const g1Problems: string[] = [];
  if (m.scenarios.length < settings.minScenarios)
    g1Problems.push(
      `the baseline holds ${m.scenarios.length} scenario(s); at least ${settings.minScenarios} are required`,
    );
  if (m.break) g1Problems.push(`the baseline was recorded with the deliberate break "${m.break}"`);
  if (failing("G1").length > 0)
    g1Problems.push(`scenarios without a usable baseline: ${list(failing("G1"))}`);
  const g1 = decide(meas, {
    head: [
      `baseline ${baseline.dir}: profile ${m.profile} on ${m.connector}, ${m.scenarios.length} scenarios × ${m.samples} samples, seed ${m.seed}, recorded ${m.createdAt}`,
      `candidate ran ${candidate.scenarios.length} scenarios × ${candidate.samples} samples`,
    ].join("; "),
    plumbing: g1Problems,
    behaviour: [],
    behavioural: false,
  });

  // G2 (plumbing): frozen schemas, and the tool really offered — 0 observations cannot pass.
  const g2Problems: string[] = [];
  for (const tool of Object.keys(codeSchemas)) {
    const recorded = m.toolSchemas[tool];
    if (!recorded) g2Problems.push(`the baseline records no ${tool} schema`);
    else if (recorded !== codeSchemas[tool])
      g2Problems.push(
        `${tool} schema changed since the baseline (${short(recorded)} → ${short(codeSchemas[tool])}): not frozen`,
      );
  }
  if (failing("G2").length > 0)
    g2Problems.push(`offered schema differs from the code: ${list(failing("G2"))}`);
  const observed = allTraces.filter((t) => t.systemPrompt.observed);
  const offeredIn = observed.filter((t) => t.tools.some((tool) => tool.name === "hire_agent")).length;
  // A profile whose CEO acts over HTTP (the legacy baseline) offers no hire_agent and retires nothing.
  const overHttp = findProfileDriver(candidate.profile)?.needsApi === true;
  let g2Insufficient: string | undefined;
  if (observed.length === 0) g2Insufficient = "no model call was observed";
  else if (offeredIn === 0 && overHttp)
    g2Insufficient = `the ${candidate.profile} profile offers no hire_agent (it hires over HTTP)`;
  else if (offeredIn === 0)
    g2Problems.push(`hire_agent was offered in 0/${observed.length} observed samples`);
  const g2 = decide(meas, {
    head: `hire_agent schema ${short(codeSchemas["hire_agent"])} in code, ${short(m.toolSchemas["hire_agent"])} in the baseline; offered to the model in ${offeredIn}/${observed.length} observed sample(s)`,
    plumbing: g2Problems,
    behaviour: [],
    ...(g2Insufficient
      ? { insufficient: { kind: "states" as const, text: `not enough states: ${g2Insufficient}` } }
      : {}),
    behavioural: false,
  });

  // G3: plumbing — hire_agent offered wherever the baseline hires; behaviour — the CEO uses it.
  const hires = allTraces.flatMap((t) => t.hires);
  const toolHires = hires.filter((h) => h.via === "tool").length;
  const coverage = hires.length === 0 ? 0 : toolHires / hires.length;
  const hiringStates = comparisons.filter(isHiringState);
  const using = hiringStates.filter((c) => coverageCell(c, settings).pass === true);
  const g3Plumbing: string[] = [];
  if (!overHttp) {
    const unoffered = comparisons.filter(
      (c) =>
        isHiringState(c) &&
        (candidate.traces.get(c.id) ?? []).some(
          (t) => t.systemPrompt.observed && !t.tools.some((tool) => tool.name === "hire_agent"),
        ),
    );
    if (unoffered.length > 0)
      g3Plumbing.push(
        `hire_agent not offered in ${unoffered.length} hiring state(s): ${unoffered
          .slice(0, 4)
          .map((c) => c.id)
          .join(", ")}`,
      );
    const withheld = withheldTools(comparisons, candidate);
    if (withheld.length > 0)
      g3Plumbing.push(
        `a tool the baseline calls is not offered to the candidate: ${withheld
          .slice(0, 4)
          .map((w) => `${w.id} (${w.tools.join(", ")})`)
          .join("; ")}${withheld.length > 4 ? `; +${withheld.length - 4} more` : ""}`,
      );
  }
  const g3Behaviour: string[] = [];
  // Where the baseline hires nobody there is no hire to route through the tool (coverage of none).
  if (hiringStates.length > 0 && coverage < settings.minToolCoverage)
    g3Behaviour.push(`overall coverage ${pct(coverage)} < ${pct(settings.minToolCoverage)}`);
  if (failing("G3").length > 0) g3Behaviour.push(`failing states: ${list(failing("G3"))}`);
  const enoughStates = hiringStates.length >= settings.minToolStates;
  if (enoughStates && using.length < settings.minToolStates)
    g3Behaviour.push(
      `hire_agent carries ≥${pct(settings.minToolCoverage)} of hires in ${using.length} state(s); ${settings.minToolStates} required`,
    );
  const g3 = decide(meas, {
    head: `${toolHires}/${hires.length} hires via hire_agent (${pct(coverage)}); ${using.length} of ${hiringStates.length} hiring states at ≥${pct(settings.minToolCoverage)}`,
    plumbing: g3Plumbing,
    behaviour: g3Behaviour,
    ...(!enoughStates && g3Behaviour.length === 0
      ? {
          insufficient: {
            kind: "states" as const,
            text: `not enough states: the run holds ${hiringStates.length} hiring state(s); G3 needs ${settings.minToolStates} (run without --only)`,
          },
        }
      : {}),
    behavioural: true,
  });

  // G4: plumbing — cue budget, valid parameters, one mode decision, terminal states; behaviour —
  // counts and roles hold against the baseline.
  const cue = Math.max(0, ...allTraces.map((t) => t.cue.tokens));
  const baseCue = Math.max(0, ...[...baseline.traces.values()].flat().map((t) => t.cue.tokens));
  const g4Plumbing: string[] = [];
  if (cue > settings.maxCueTokens)
    g4Plumbing.push(`initial cue up to ${cue} tokens > ${settings.maxCueTokens}`);
  const invalid = comparisons.filter((c) => c.params.valid < c.params.total);
  if (invalid.length > 0)
    g4Plumbing.push(
      `invalid hire parameters in ${invalid.length} scenario(s): ${invalid
        .slice(0, 3)
        .map((c) => `${c.id} (${c.params.problems[0] ?? "invalid"})`)
        .join("; ")}`,
    );
  const drifted = allTraces.flatMap((t) => {
    const d = modeDrift(t);
    return d ? [`${t.scenarioId}#${t.sample}: ${d}`] : [];
  });
  if (drifted.length > 0)
    g4Plumbing.push(
      `mode drift in ${drifted.length} sample(s): ${drifted.slice(0, 2).join("; ")}${drifted.length > 2 ? "; …" : ""}`,
    );
  const crashed = comparisons.filter((c) => {
    const base = Object.entries(c.baseline.terminals).sort((a, b) => b[1] - a[1])[0]?.[0] ?? "done";
    return base === "done" && (c.candidate.terminals["failed"] ?? 0) > c.candidate.samples / 2;
  });
  if (crashed.length > 0)
    g4Plumbing.push(
      `most samples failed where the baseline's ended done: ${crashed
        .slice(0, 4)
        .map((c) => c.id)
        .join(", ")}`,
    );
  const g4Behaviour: string[] = [];
  if (failing("G4").length > 0)
    g4Behaviour.push(`behaviour differs in ${failing("G4").length} scenario(s): ${list(failing("G4"))}`);
  // A handful of scenarios (--only) can miss what a prompt change broke: too few to pass, not to fail.
  const fewScenarios =
    comparisons.length < settings.minBehaviourScenarios && g4Behaviour.length === 0
      ? {
          kind: "scenarios" as const,
          text: `not enough scenarios: the run holds ${comparisons.length}; G4 needs ${settings.minBehaviourScenarios} to pass (run without --only)`,
        }
      : undefined;
  const incomplete = incompleteSamples(comparisons, settings);
  const g4 = decide(meas, {
    head: `cue ${baseCue} → ${cue} tokens (o200k, ≤${settings.maxCueTokens}); ${comparisons.filter((c) => c.behaviourVerdict).length}/${comparisons.length} scenarios hold every behaviour dimension (${DIMENSION_LIST}; hires ±${settings.hireTolerance} of the median, roles: every function hired by the baseline or team Jaccard ≥${settings.functionJaccard}, tool calls matched ${settings.trajectory}) at pass^${settings.k} ≥${settings.minPassK}`,
    plumbing: g4Plumbing,
    behaviour: g4Behaviour,
    ...(fewScenarios ? { insufficient: fewScenarios } : {}),
    ...(incomplete ? { incomplete } : {}),
    behavioural: true,
  });

  // G5: the earlier gates, then no HTTP hire and no regression.
  const g5Plumbing: string[] = [];
  const earlier = { G1: g1, G2: g2, G3: g3, G4: g4 };
  const failed = (["G1", "G2", "G3", "G4"] as const).filter((g) => earlier[g].verdict === false);
  const undecided = (["G1", "G2", "G3", "G4"] as const).filter((g) => earlier[g].verdict === null);
  const undecidedKind = undecided.map((g) => earlier[g].undecided).find((k) => k !== null) ?? "states";
  const plumbingFailed = (["G1", "G2", "G3", "G4"] as const).filter((g) => earlier[g].pass === false);
  if (plumbingFailed.length > 0) g5Plumbing.push(`${plumbingFailed.join(", ")} must pass first`);
  if (overHttp) g5Plumbing.push(`the candidate is the ${candidate.profile} profile itself`);
  const g5Behaviour: string[] = [];
  const behaviourFailed = failed.filter((g) => !plumbingFailed.includes(g));
  if (behaviourFailed.length > 0) g5Behaviour.push(`${behaviourFailed.join(", ")} must pass first`);
  const http = hires.filter((h) => h.via === "http").length;
  if (http > 0) g5Behaviour.push(`${http} candidate hire(s) still went through the legacy HTTP path`);
  if (failing("G5").length > 0) g5Behaviour.push(`regressions: ${list(failing("G5"))}`);
  const g5 = decide(meas, {
    head: `${comparisons.filter((c) => c.verdict).length}/${comparisons.length} scenarios without regression (behaviour and cache within ${settings.cacheTolerance * 100} points${replayNote(allTraces)}); ${http} hire(s) via HTTP`,
    plumbing: g5Plumbing,
    behaviour: g5Behaviour,
    ...(undecided.length > 0 && g5Behaviour.length === 0
      ? { insufficient: { kind: undecidedKind, text: `${undecided.join(", ")} could not be decided` } }
      : {}),
    ...(incomplete ? { incomplete } : {}),
    behavioural: true,
  });

  return { G1: g1, G2: g2, G3: g3, G4: g4, G5: g5 };
}
