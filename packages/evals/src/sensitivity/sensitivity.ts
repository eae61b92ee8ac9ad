// Sensitivity, measured as mutation testing: the operators make mutants of the prompts
// and code facts as they are now; each runs as a candidate through the real pipeline, and a gate
// whose verdict fails kills it. Score = killed / (total − equivalent). The result is a certificate
// bound to what it measured (certificate.ts); scripted answers (offline, any stand-in) never
// measure behaviour, whatever they kill: their figure is what plumbing alone catches.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { compareRuns } from "../compare/compare.js";
import {
  GATE_IDS,
  gateSourceOf,
  type GateSource,
  notMeasuredNote,
  scriptedReason,
} from "../compare/gates.js";
import { DEFAULT_COMPARE_SETTINGS } from "../compare/settings.js";
import type { EvalReport } from "../report/schema.js";
import { readRecording } from "../recording/read.js";
import type { Recording } from "../recording/types.js";
import { writeRecording } from "../recording/write.js";
import type { SuiteResult } from "../runner/run-suite.js";
import { driverOf } from "@cadre/company";
import { type RunOptions, runProfile } from "../evaluate.js";
import { isEvalConnector } from "../runner/live-endpoint.js";
import { type CertificateFacts, runFacts } from "./certificate.js";
import { generateMutants, type Selection, selectMutants } from "./generate.js";
import { asBreak, type Mutant } from "./mutant.js";
import { type ControlResult, falseAlarmControl } from "./control.js";

/** A connector counts as sensitive only when its gates kill at least this share of the generated mutants… */
export const MIN_SCORE = 0.8;
/** …on a generated set at least this large, from at least this many operators. */
export const MIN_MUTANTS = 30;
export const MIN_OPERATORS = 8;

export interface Kill {
  gate: string;
  /** The scenario whose cell failed (one the mutant ran in); null when only a run-wide figure did. */
  scenario: string | null;
  evidence: string;
}

export interface MutantResult {
  id: string;
  operator: string;
  description: string;
  diff: string;
  /** The scenarios the mutant ran in (those starting in a mode whose wakes see the change). */
  scenarios: string[];
  equivalent?: string;
  killedBy?: Kill;
  survived?: true;
  /** An operator's own mutation file, outside the generated set's score. */
  own?: true;
}

export interface SensitivityResult extends CertificateFacts {
  kind: "cadre-eval-sensitivity";
  version: 2;
  createdAt: string;
  samples: number;
  source: GateSource;
  /** Whether the figures measure behaviour (false on scripted answers: offline, a stand-in). */
  measured: boolean;
  note: string;
  /** What the mutated candidates were compared with. */
  reference: { kind: "baseline" | "control"; dir: string; note: string };
  /** The unmutated candidate against the reference: a kill here is a false alarm. */
  control: ControlResult | null;
  mutants: MutantResult[];
  /** Generated mutants this connector cannot be given, and why (left out of the set). */
  notRun: { count: number; why: string } | null;
  /** Of the generated set (operators' files are listed, not scored). */
  killed: number;
  total: number;
  equivalent: number;
  score: number | null;
  operators: string[];
}

export interface SensitivityOptions extends Omit<RunOptions, "profile" | "break" | "mutation"> {
  baseline: string;
  /** Where the control's traces go (when it is the reference). */
  out: string;
  /** pass^k's k (default 3); samples default to it. */
  k?: number;
  /** Default: every mutant the operators make of the current texts and code. */
  mutants?: readonly Mutant[];
  selection?: Selection;
  /** An operator's own mutants (mutation files): run and listed, not in the score. */
  own?: readonly Mutant[];
  /** After each mutant, with how many are done of how many. */
  onMutant?: (result: MutantResult, done: number, total: number) => void;
}

const verdictsOnly = (source: GateSource) => ({
  measurement: { source, behaviourMeasured: true, note: "sensitivity: the gates' verdicts" },
  sensitivity: null,
});

/**
 * The gate that killed a mutant: the first whose verdict failed, where the failure is the mutant's
 * (a failing cell in a scenario it ran in, or a gate the unmutated control passed).
 */
function killOf(report: EvalReport, control: EvalReport, ran: readonly string[]): Kill | undefined {
  for (const gate of GATE_IDS) {
    if (report.gates[gate].verdict !== false) continue;
    const cell = report.matrix.find((row) => ran.includes(row.scenario) && row.cells[gate].pass === false);
    if (!cell && control.gates[gate].verdict === false) continue;
    const named = ran.find((id) => report.gates[gate].evidence.includes(id)) ?? null;
    return {
      gate,
      scenario: cell?.scenario ?? named,
      evidence: cell ? cell.cells[gate].evidence : report.gates[gate].evidence,
    };
  }
  return undefined;
}

const asCandidate = (r: Recording): SuiteResult => ({
  profile: r.manifest.profile,
  connector: r.manifest.connector,
  samples: r.manifest.samples,
  seed: r.manifest.seed,
  break: r.manifest.break,
  scenarios: r.scenarios,
  traces: r.traces,
});

export async function measureSensitivity(options: SensitivityOptions): Promise<SensitivityResult> {
  const baseline = await readRecording(options.baseline);
  const k = options.k ?? DEFAULT_COMPARE_SETTINGS.k;
  const settings = { ...DEFAULT_COMPARE_SETTINGS, k };
  const seed = options.seed ?? baseline.manifest.seed;
  // Codex is given the company tools by its own `cadre mcp` process: a change to the session's
  // tools in this process never reaches it, so those mutants are not run there (and say so).
  const codex =
    options.connector !== undefined &&
    options.connector !== "standin" &&
    isEvalConnector(options.connector) &&
    driverOf(options.connector).harness === "codex";
  const selected = selectMutants(options.mutants ?? generateMutants(seed), options.selection ?? {});
  const generated = codex ? selected.filter((m) => !m.edit.toolOffer) : selected;
  const notRun =
    selected.length > generated.length
      ? {
          count: selected.length - generated.length,
          why: "Codex is given the company tools by its own cadre mcp process, which a mutant of the session's tools does not reach",
        }
      : null;
  const own = options.own ?? [];
  // The mutants' runs report per mutant (onMutant), not per sample, and repeat no notice.
  const quiet = Object.fromEntries(
    Object.entries(options).filter(([key]) => key !== "onProgress" && key !== "onNotice"),
  ) as SensitivityOptions;
  const run = (mutant?: Mutant, only?: string[], runSeed = seed) =>
    runProfile({
      ...(mutant ? quiet : options),
      profile: "semantic",
      seed: runSeed,
      ...(mutant ? { mutation: asBreak(mutant) } : {}),
      ...(only ? { only } : {}),
    });
  const control = await run();
  const connector = control.connector;
  const controlTraces = [...control.traces.values()].flat();
  const source = gateSourceOf(controlTraces);
  // The reference is the baseline when it was recorded on this connector; otherwise the control
  // run itself (a candidate is compared with a reference of its own connector).
  let reference: Recording;
  let referenceInfo: SensitivityResult["reference"];
  let controlReport: EvalReport;
  if (baseline.manifest.connector === connector) {
    reference = baseline;
    referenceInfo = {
      kind: "baseline",
      dir: options.baseline,
      note: `the baseline, recorded on ${connector}`,
    };
    controlReport = compareRuns(reference, control, settings, new Date(), verdictsOnly(source));
  } else {
    const dir = join(options.out, "control");
    await writeRecording(dir, control);
    reference = await readRecording(dir);
    referenceInfo = {
      kind: "control",
      dir,
      note: `the unmutated semantic prompt on ${connector} (the baseline ${options.baseline} was recorded on ${baseline.manifest.connector}; a candidate is compared with its own connector's reference)`,
    };
    controlReport = compareRuns(
      reference,
      asCandidate(reference),
      settings,
      new Date(),
      verdictsOnly(source),
    );
  }
  // The false-alarm control: two more unmutated candidates on other seeds against the reference
  // (the control compared with itself, when it is the reference, could never fail).
  const falseAlarm = await falseAlarmControl(reference, (s) => run(undefined, undefined, s), settings);
  const startMode = new Map(control.scenarios.map((s) => [s.scenario.id, s.scenario.expectMode]));
  const all = [...generated, ...own.map((m) => ({ ...m, own: true as const }))];
  const results: MutantResult[] = [];
  for (const mutant of all) {
    // A wake decides its mode (document, cue, tools) once, at its start: only scenarios starting in
    // a mode the mutant changes can see it. The others keep the control's samples, which are
    // samples of exactly what they would run.
    const ran = [...startMode].filter(([, mode]) => mutant.modes.includes(mode)).map(([id]) => id);
    let kill: Kill | undefined;
    if (ran.length > 0) {
      const mutated = await run(mutant, ran);
      const traces = new Map(control.traces);
      for (const [id, list] of mutated.traces) traces.set(id, list);
      const candidate: SuiteResult = { ...control, break: mutant.id, traces };
      kill = killOf(
        compareRuns(reference, candidate, settings, new Date(), verdictsOnly(source)),
        controlReport,
        ran,
      );
    }
    const result: MutantResult = {
      id: mutant.id,
      operator: mutant.operator,
      description: mutant.description,
      diff: mutant.diff,
      scenarios: ran,
      ...(mutant.equivalent ? { equivalent: mutant.equivalent } : {}),
      ...(kill ? { killedBy: kill } : { survived: true as const }),
      ...("own" in mutant ? { own: true as const } : {}),
    };
    results.push(result);
    options.onMutant?.(result, results.length, all.length);
  }
  const scripted = scriptedReason(controlTraces);
  const figures = scoreOf(results);
  return {
    kind: "cadre-eval-sensitivity",
    version: 2,
    createdAt: new Date().toISOString(),
    ...(await runFacts(control, k)),
    samples: control.samples,
    source,
    measured: source !== "scripted",
    note:
      source === "scripted"
        ? `${notMeasuredNote(scripted ?? "no model answered")}: these figures are what plumbing alone catches`
        : `behaviour measured on ${source} samples of ${connector}`,
    reference: referenceInfo,
    control: falseAlarm,
    notRun,
    mutants: results,
    ...figures,
  };
}

/** The generated set's figures, computed from the mutant list (never taken from a record's own numbers). */
export function scoreOf(mutants: readonly MutantResult[]): {
  killed: number;
  total: number;
  equivalent: number;
  score: number | null;
  operators: string[];
} {
  const generated = mutants.filter((m) => !m.own);
  const scored = generated.filter((m) => !m.equivalent);
  const killed = scored.filter((m) => m.killedBy).length;
  return {
    killed,
    total: generated.length,
    equivalent: generated.length - scored.length,
    score: scored.length === 0 ? null : killed / scored.length,
    operators: [...new Set(generated.map((m) => m.operator))],
  };
}

/** Where a connector's last sensitivity result is kept (under the working directory's .cadre/). */
export function sensitivityFile(connector: string, root = ".cadre"): string {
  return join(root, "sensitivity", `${connector.replace(/[^A-Za-z0-9._-]+/g, "_")}.json`);
}

export async function writeSensitivity(file: string, result: SensitivityResult): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** A record as read: a current one, one from an older Cadre (it names not what it measured), or none. */
export type ReadRecord =
  { state: "current"; record: SensitivityResult } | { state: "outdated" } | { state: "none" };

export async function readSensitivity(file: string): Promise<ReadRecord> {
  let value: Partial<SensitivityResult> & { kind?: unknown };
  try {
    value = JSON.parse(await readFile(file, "utf8")) as typeof value;
  } catch {
    return { state: "none" };
  }
  if (value?.kind !== "cadre-eval-sensitivity") return { state: "none" };
  return value.version === 2 && Array.isArray(value.mutants)
    ? { state: "current", record: value as SensitivityResult }
    : { state: "outdated" };
}

/**
 * Whether a record shows a connector whose gates see prompt changes: measured (a model, not
 * scripted answers), no false alarm on the unmutated prompt, and ≥ 80 % of a generated set of ≥ 30
 * mutants from ≥ 8 operators killed. Null when it does; else why not, in words.
 */
export function insensitivity(record: SensitivityResult): string | null {
  const f = scoreOf(record.mutants);
  if (!record.measured || record.source === "scripted")
    return `its figures come from scripted answers (${record.connector}), which never measure behaviour`;
  if (record.control?.detected)
    return `the unmutated prompts failed ${record.control.gate} against the reference on another seed (a false alarm)`;
  if (f.total < MIN_MUTANTS || f.operators.length < MIN_OPERATORS)
    return `it ran ${f.total} generated mutant(s) from ${f.operators.length} operator(s); at least ${MIN_MUTANTS} from ${MIN_OPERATORS} are required`;
  if (f.score === null || f.score < MIN_SCORE)
    return `its gates killed ${f.killed}/${f.total - f.equivalent} mutants (${f.score === null ? "none scored" : `${Math.round(f.score * 100)}%`}); at least ${MIN_SCORE * 100}% is required`;
  return null;
}
