// The harness's three jobs, as the CLI (and tests, and CI scripts) call them: run a profile over
// the scenarios, record that run as a baseline, evaluate a candidate against a baseline.
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  ASSUMED_PROBES,
  checkPromptContract,
  defaultEnabledModels,
  describeContractProblem,
  keyEnvOf,
  readiness,
} from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { checkCassettes } from "./cassette/entry.js";
import { compareRuns, type EvalReport } from "./compare/compare.js";
import { gateSourceOf, type Measurement } from "./compare/gates.js";
import { measurementOf, readSensitivity, sensitivityFile } from "./sensitivity/sensitivity.js";
import { type CompareSettings, DEFAULT_COMPARE_SETTINGS } from "./compare/settings.js";
import { readRecording } from "./recording/read.js";
import type { Recording, RecordingManifest } from "./recording/types.js";
import { writeRecording } from "./recording/write.js";
import { type ReportFiles, writeReport } from "./report/write.js";
import { type Break, breakNamed, BREAKS } from "./runner/breaks.js";
import { startStandin } from "@cadre/standin";
import { readsPrompt } from "@cadre/standin";
import { profileDriver } from "./runner/profiles.js";
import { runSuite, type SuiteOptions, type SuiteResult } from "./runner/run-suite.js";
import { freshRunSeed } from "./runner/seeds.js";
import { loadScenarios } from "./scenario/load.js";
import type { Trace } from "./trace/types.js";

export const CEO_CONNECTORS = ["offline", "anthropic", "openai", "openai-compatible", "standin"] as const;

/** The model id the built-in stand-in (`--connector standin`) serves. */
export const STANDIN_MODEL = "cadre-standin-reads-prompt-1b";
export const CASSETTE_MODES = ["off", "record", "replay", "replay-or-record"] as const;
export type CassetteSetting = (typeof CASSETTE_MODES)[number];

/** What a replay puts in the environment for a vendor key that is not set: readiness needs one, nothing sends it. */
export const REPLAY_PLACEHOLDER_KEY = "cadre-replay-placeholder";

export interface RunOptions {
  profile: string;
  samples: number;
  /** Default: a fresh seed, reported in the result. */
  seed?: number;
  /** Default: the machine's parallelism, at most 4. */
  concurrency?: number;
  /** The CEO's connector; default offline. */
  connector?: string;
  /** A deliberate break of the candidate (see runner/breaks.ts). */
  break?: string;
  /** A prompt mutation (sensitivity runs): applied like a break, reported under its id. */
  mutation?: Break;
  /** openai-compatible: the endpoint (…/v1) and the model id; standin: the model only. */
  baseUrl?: string;
  model?: string;
  /** Scenario directories; default the built-in evals/scenarios. */
  scenarioDirs?: string[];
  /** Only these scenario ids. */
  only?: string[];
  env?: NodeJS.ProcessEnv;
  /**
   * Record every model answer to cassettesDir, answer from there only (replay), or answer what is
   * there and record the misses live (replay-or-record); default off.
   */
  cassettes?: CassetteSetting;
  /** Required when cassettes is not off (record and run default it: see recordBaseline, evaluateCandidate). */
  cassettesDir?: string;
  onProgress?: (p: { done: number; total: number; trace: Trace }) => void;
  /** Things the run did that a reader should know (e.g. placeholder keys under replay). */
  onNotice?: (text: string) => void;
}

export function defaultConcurrency(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export async function runProfile(options: RunOptions): Promise<SuiteResult> {
  if (!Number.isInteger(options.samples) || options.samples < 1)
    throw new UserInputError(`samples must be a whole number ≥ 1 (got ${options.samples})`);
  const connector = options.connector ?? "offline";
  if (!(CEO_CONNECTORS as readonly string[]).includes(connector))
    throw new UserInputError(`connector must be one of ${CEO_CONNECTORS.join(", ")} (got "${connector}")`);
  const broken = options.mutation ?? (options.break === undefined ? undefined : breakNamed(options.break));
  if (options.break !== undefined && !broken)
    throw new UserInputError(`unknown break "${options.break}"; breaks: ${Object.keys(BREAKS).join(", ")}`);
  if (connector === "openai-compatible" && (!options.baseUrl || !options.model))
    throw new UserInputError(
      "--connector openai-compatible needs --base-url URL (the endpoint, e.g. http://127.0.0.1:11434/v1) and --model ID",
    );
  if (connector !== "openai-compatible" && connector !== "standin" && options.baseUrl !== undefined)
    throw new UserInputError(`--base-url applies to --connector openai-compatible only (got ${connector})`);
  const cassettes = await cassetteConfig(options);
  const env =
    cassettes?.mode === "replay"
      ? replayEnv(options.env ?? process.env, options.onNotice)
      : (options.env ?? process.env);
  if (connector === "anthropic" || connector === "openai") {
    const kind = connector;
    const ready = readiness(
      { kind, config: {}, enabledModels: defaultEnabledModels(kind) },
      env,
      ASSUMED_PROBES,
    );
    if (!ready.ready)
      throw new UserInputError(
        `the ${connector} connector is not ready: ${ready.missing}. Offline runs need no key (--connector offline).`,
      );
  }
  // The prompt contract before any sample: texts that contradict the code are not worth sampling.
  const contract = checkPromptContract();
  if (contract.length > 0)
    throw new UserInputError(
      `the prompt contract does not hold (static check, see cadre prompts check):\n${contract.map((p) => `  ${describeContractProblem(p)}`).join("\n")}`,
    );
  const profile = profileDriver(options.profile);
  const scenarios = await loadScenarios(options.scenarioDirs, options.only);
  // The built-in stand-in: a loopback server speaking OpenAI Chat Completions, answered by the
  // rule-based prompt reader (packages/standin/src/policies/reads-prompt.ts). Not a model.
  const standin =
    connector === "standin" && cassettes?.mode !== "replay"
      ? await startStandin({ policy: readsPrompt() })
      : undefined;
  try {
    const endpoint =
      connector === "standin"
        ? {
            ceoKind: "openai-compatible" as const,
            ceoBaseUrl: standin?.openaiBaseUrl ?? "http://127.0.0.1:9/v1",
            ceoModel: options.model ?? STANDIN_MODEL,
            connectorLabel: "standin",
          }
        : connector === "openai-compatible"
          ? {
              ceoKind: "openai-compatible" as const,
              ceoBaseUrl: options.baseUrl as string,
              ceoModel: options.model as string,
              connectorLabel: `openai-compatible:${options.model as string}`,
            }
          : connector === "anthropic" || connector === "openai"
            ? { ceoKind: connector as "anthropic" | "openai" }
            : {};
    return await runSuite({
      scenarios,
      samples: options.samples,
      seed: options.seed ?? freshRunSeed(),
      concurrency: options.concurrency ?? defaultConcurrency(),
      profile,
      env,
      ...endpoint,
      ...(broken ? { break: broken } : {}),
      ...(cassettes ? { cassettes } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    await standin?.close();
  }
}

async function cassetteConfig(options: RunOptions): Promise<SuiteOptions["cassettes"]> {
  const mode = options.cassettes ?? "off";
  if (!(CASSETTE_MODES as readonly string[]).includes(mode))
    throw new UserInputError(`cassettes must be one of ${CASSETTE_MODES.join(", ")} (got "${mode}")`);
  if (mode === "off") return undefined;
  const dir = options.cassettesDir;
  if (!dir) throw new UserInputError(`cassettes ${mode} needs a cassette directory`);
  const exists = (await stat(dir).catch(() => undefined))?.isDirectory() === true;
  if (mode === "replay" && !exists) {
    throw new UserInputError(
      `${dir}: no cassettes to replay (record them with --cassettes record, or name them with --cassettes-dir)`,
    );
  }
  // Every cassette is read before the first sample: a damaged file stops the run now, naming it.
  if (mode !== "record" && exists) await checkCassettes(dir);
  return { mode, dir };
}

/**
 * A replay answers from cassettes and never calls a vendor, but readiness (the seeded CEO, the
 * prompt's connector list, hire_agent) still asks for the key: an unset vendor key gets a
 * placeholder, so a replayed connector counts as ready as it did when it was recorded.
 */
function replayEnv(env: NodeJS.ProcessEnv, notice?: (text: string) => void): NodeJS.ProcessEnv {
  const out = { ...env };
  const filled: string[] = [];
  for (const kind of ["anthropic", "openai"] as const) {
    const name = keyEnvOf({ kind, config: {} });
    if (name && !out[name]) {
      out[name] = REPLAY_PLACEHOLDER_KEY;
      filled.push(name);
    }
  }
  if (filled.length > 0)
    notice?.(`replay: ${filled.join(", ")} set to a placeholder for readiness only; no model is called`);
  return out;
}

export async function recordBaseline(
  options: RunOptions & { out: string },
): Promise<{ result: SuiteResult; manifest: RecordingManifest }> {
  const result = await runProfile({
    ...options,
    cassettesDir: options.cassettesDir ?? join(options.out, "cassettes"),
  });
  return { result, manifest: await writeRecording(options.out, result) };
}

export interface EvaluateOptions extends RunOptions {
  baseline: string;
  /** The connector's last sensitivity result; default .cadre/sensitivity/<connector>.json. */
  sensitivityFile?: string;
  /** Where report.json, report.md, report.html and the candidate's traces (candidate/) go. */
  out: string;
  settings?: Partial<CompareSettings>;
}

export interface Evaluation {
  report: EvalReport;
  files: ReportFiles;
  baseline: Recording;
}

/** Compares an already recorded candidate with a baseline (no run). */
export async function compareRecordings(
  baselineDir: string,
  candidateDir: string,
  out: string,
  settings: Partial<CompareSettings> = {},
): Promise<Evaluation> {
  const baseline = await readRecording(baselineDir);
  const candidate = await readRecording(candidateDir);
  const m = candidate.manifest;
  const candidateRun: SuiteResult = {
    profile: m.profile,
    connector: m.connector,
    samples: m.samples,
    seed: m.seed,
    break: m.break,
    scenarios: candidate.scenarios,
    traces: candidate.traces,
  };
  const report = compareRuns(
    baseline,
    candidateRun,
    { ...DEFAULT_COMPARE_SETTINGS, ...settings },
    new Date(),
    await measurementFor(candidateRun),
  );
  return { report, files: await writeReport(out, report), baseline };
}

/** The candidate's measurement: its source, and the sensitivity of its connector. */
export async function measurementFor(
  run: SuiteResult,
  file?: string,
): Promise<{ measurement: Measurement; sensitivity: EvalReport["measurement"]["sensitivity"] }> {
  const source = gateSourceOf([...run.traces.values()].flat());
  const where = file ?? sensitivityFile(run.connector);
  const record = await readSensitivity(where);
  return {
    measurement: measurementOf(source, run.connector, record),
    sensitivity: record
      ? {
          connector: record.connector,
          detected: record.detected,
          total: record.total,
          createdAt: record.createdAt,
          file: where,
        }
      : null,
  };
}

export async function evaluateCandidate(options: EvaluateOptions): Promise<Evaluation> {
  // The baseline is read first: a bad baseline fails before minutes of sampling.
  const baseline = await readRecording(options.baseline);
  // By default sample i of a scenario reuses the baseline's seed for it (common random numbers):
  // the offline model then draws the same plan, so a difference is the candidate's, not chance's.
  const candidateDir = join(options.out, "candidate");
  // Replay answers from the baseline's cassettes (replay-or-record adds its misses there, so the
  // next replay hits); a recording goes beside the candidate's traces.
  const fromBaseline = options.cassettes === "replay" || options.cassettes === "replay-or-record";
  const cassettesDir =
    options.cassettesDir ?? join(fromBaseline ? options.baseline : candidateDir, "cassettes");
  const result = await runProfile({ ...options, seed: options.seed ?? baseline.manifest.seed, cassettesDir });
  await writeRecording(candidateDir, result);
  const report = compareRuns(
    baseline,
    result,
    { ...DEFAULT_COMPARE_SETTINGS, ...options.settings },
    new Date(),
    await measurementFor(result, options.sensitivityFile),
  );
  return { report, files: await writeReport(options.out, report), baseline };
}
