// Sensitivity, measured: run known-bad prompt mutations as candidates and count how many the gates
// catch. A gate that passes a prompt forbidding hiring sees nothing; this says so with a number.
// Detection reads each gate's verdict (what its rules computed, measured or not), so a scripted
// connector's low figure is its own, not hidden by "not measured".
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { compareRuns } from "../compare/compare.js";
import {
  gateSourceOf,
  type GateSource,
  type Measurement,
  notMeasuredNote,
  scriptedReason,
} from "../compare/gates.js";
import type { Trace } from "../trace/types.js";
import { DEFAULT_COMPARE_SETTINGS } from "../compare/settings.js";
import { readRecording } from "../recording/read.js";
import type { Recording } from "../recording/types.js";
import { writeRecording } from "../recording/write.js";
import { type RunOptions, runProfile } from "../evaluate.js";
import { type ControlResult, detection, falseAlarmControl } from "./control.js";
import { BUILTIN_MUTATIONS, type Mutation } from "./mutations.js";

/** A behaviour gate counts as measured only on a connector that caught at least this many of six. */
export const MIN_DETECTED = 5;
export const MIN_DETECTED_SHARE = 5 / 6;

export interface MutationResult {
  id: string;
  description: string;
  detected: boolean;
  /** The first gate whose verdict failed; null when none did. */
  gate: string | null;
  evidence: string;
}

export interface SensitivityResult {
  kind: "cadre-eval-sensitivity";
  createdAt: string;
  connector: string;
  source: GateSource;
  /** What the mutated candidates were compared with. */
  reference: { kind: "baseline" | "control"; dir: string; note: string };
  /** Two unmutated candidates (other seeds) against the reference: a detection here is a false alarm. */
  control: ControlResult | null;
  mutations: MutationResult[];
  detected: number;
  total: number;
}

export interface SensitivityOptions extends Omit<RunOptions, "profile" | "break" | "mutation"> {
  baseline: string;
  /** Where the control and candidates' traces go. */
  out: string;
  mutations?: readonly Mutation[];
  onMutation?: (m: MutationResult) => void;
}

export async function measureSensitivity(options: SensitivityOptions): Promise<SensitivityResult> {
  const baseline = await readRecording(options.baseline);
  const mutations = options.mutations ?? BUILTIN_MUTATIONS;
  const run = (mutation?: Mutation, seed?: number) =>
    runProfile({
      ...options,
      profile: "semantic",
      seed: seed ?? options.seed ?? baseline.manifest.seed,
      ...(mutation ? { mutation } : {}),
    });
  const control = await run();
  const connector = control.connector;
  // The reference is the baseline when it was recorded on this connector; otherwise the control
  // run itself (a live candidate is compared with a baseline from its own connector).
  let reference: Recording;
  let referenceInfo: SensitivityResult["reference"];
  const settings = { ...DEFAULT_COMPARE_SETTINGS };
  if (baseline.manifest.connector === connector) {
    reference = baseline;
    referenceInfo = {
      kind: "baseline",
      dir: options.baseline,
      note: `the baseline, recorded on ${connector}`,
    };
  } else {
    const dir = join(options.out, "control");
    await writeRecording(dir, control);
    reference = await readRecording(dir);
    referenceInfo = {
      kind: "control",
      dir,
      note: `the unmutated semantic prompt on ${connector} (the baseline ${options.baseline} was recorded on ${baseline.manifest.connector}; a candidate is compared with its own connector's reference)`,
    };
  }
  const controlCheck = await falseAlarmControl(reference, (seed) => run(undefined, seed), settings);
  const results: MutationResult[] = [];
  for (const mutation of mutations) {
    const candidate = await run(mutation);
    const d = detection(compareRuns(reference, candidate, settings));
    const result = { id: mutation.name, description: mutation.description, ...d };
    results.push(result);
    options.onMutation?.(result);
  }
  const traces = [...control.traces.values()].flat();
  return {
    kind: "cadre-eval-sensitivity",
    createdAt: new Date().toISOString(),
    connector,
    source: gateSourceOf(traces),
    reference: referenceInfo,
    control: controlCheck,
    mutations: results,
    detected: results.filter((r) => r.detected).length,
    total: results.length,
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

export async function readSensitivity(file: string): Promise<SensitivityResult | undefined> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as SensitivityResult;
    return value.kind === "cadre-eval-sensitivity" && Number.isInteger(value.detected) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a connector's sensitivity lets its behaviour gates count as measured. */
export function sensitive(result: SensitivityResult | undefined): boolean {
  return (
    result !== undefined &&
    result.detected >= MIN_DETECTED &&
    result.detected / Math.max(1, result.total) >= MIN_DETECTED_SHARE &&
    result.control?.detected !== true
  );
}

/**
 * The measurement of a candidate run: scripted answers (the offline model, a stand-in) never measure
 * behaviour, whatever a sensitivity record says; a model's need its connector's sensitivity.
 */
export function measurementOf(
  traces: Trace[],
  connector: string,
  result: SensitivityResult | undefined,
): Measurement {
  const source = gateSourceOf(traces);
  const scripted = scriptedReason(traces);
  if (source === "scripted" || scripted !== null)
    return {
      source: "scripted",
      behaviourMeasured: false,
      note: notMeasuredNote(scripted ?? "no model answered"),
    };
  const figure = result ? `${result.detected}/${result.total}` : "none";
  if (!sensitive(result))
    return {
      source,
      behaviourMeasured: false,
      note: `behaviour not measured: connector ${connector} has ${result ? `a sensitivity of ${figure} known-bad mutations detected${result.control?.detected ? " and a false alarm on the unmutated prompt" : ""}` : "no sensitivity record"}; ≥${MIN_DETECTED}/6 is required (cadre eval sensitivity --connector ${connector.split(":")[0]})`,
    };
  return {
    source,
    behaviourMeasured: true,
    note: `behaviour measured on ${source} samples; connector sensitivity ${figure}`,
  };
}
