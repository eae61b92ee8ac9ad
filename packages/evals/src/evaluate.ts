// The harness's three jobs, as the CLI (and tests, and CI scripts) call them: run a profile over
// the scenarios, record that run as a baseline, evaluate a candidate against a baseline.
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { checkPromptContract, describeContractProblem, keyEnvOf } from "@cadre/company";
import { priceAt, UserInputError } from "@cadre/core";
import { CONNECTOR_KINDS } from "@cadre/model";
import { splitCaptured, withCaptured } from "./capture/in-report.js";
import { checkCassettes } from "./cassette/entry.js";
import { compareRuns, type EvalReport } from "./compare/compare.js";
import { type Measurement } from "./compare/gates.js";
import { runFacts } from "./sensitivity/certificate.js";
import { measurementOf } from "./sensitivity/measurement.js";
import { readSensitivity, scoreOf, sensitivityFile } from "./sensitivity/sensitivity.js";
import { type CompareSettings, DEFAULT_COMPARE_SETTINGS } from "./compare/settings.js";
import { readRecording } from "./recording/read.js";
import type { Recording, RecordingManifest } from "./recording/types.js";
import { writeRecording } from "./recording/write.js";
import { type ReportFiles, writeReport } from "./report/write.js";
import { type Break, breakNamed, BREAKS } from "./runner/breaks.js";
import { checkCaps, describeCaps, type SampleCaps } from "./runner/caps.js";
import {
  EVAL_CONNECTORS,
  isEvalConnector,
  labelFor,
  modelFor,
  openEndpoint,
  STANDIN_MODEL,
} from "./runner/live-endpoint.js";
import { checkSources, modelOfTraces, sourceText } from "./compare/source.js";
import { runSection } from "./report/run-section.js";
import { profileDriver } from "./runner/profiles.js";
import { runSuite, type SuiteOptions, type SuiteResult } from "./runner/run-suite.js";
import { freshRunSeed } from "./runner/seeds.js";
import { loadScenarios } from "./scenario/load.js";
import type { Trace } from "./trace/types.js";

export { STANDIN_MODEL };
/** The CEO's connector kinds `eval record|run --connector` takes. */
export const CEO_CONNECTORS = EVAL_CONNECTORS;
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
  /** The model server's URL (openai-compatible: required; others: instead of the vendor's), and the model id. */
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
  /** Per-sample caps; the defaults (DEFAULT_SAMPLE_CAPS) for any not given. */
  caps?: Partial<SampleCaps>;
  /** The whole run's cost limit in USD (checked before each sample starts and before each model call). */
  maxCostUsd?: number;
  /** Codex's `cadre mcp`: the argv that starts cadre (default: this process, when it is the cadre CLI). */
  cadreCommand?: readonly string[];
  onProgress?: (p: { done: number; total: number; trace: Trace }) => void;
  /** Things the run did that a reader should know (caps in force, placeholder keys under replay, untrusted cost caps). */
  onNotice?: (text: string) => void;
}

export function defaultConcurrency(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** A cost limit on a model with no known price cannot be enforced: said before the run, and in its report. */
export function untrustedCostNotice(
  model: string | null,
  maxCostUsd: number | undefined,
): string | undefined {
  if (model === null || priceAt(model, new Date().toISOString()) !== null) return undefined;
  return `cost: no known price for model ${model}: its cost is unknown (not 0), so ${maxCostUsd !== undefined ? `--max-cost-usd ${maxCostUsd} and ` : ""}the per-sample cost cap cannot be trusted; the other caps still hold`;
}

export async function runProfile(options: RunOptions): Promise<SuiteResult> {
  if (!Number.isInteger(options.samples) || options.samples < 1)
    throw new UserInputError(`samples must be a whole number ≥ 1 (got ${options.samples})`);
  const connector = options.connector ?? "offline";
  if (!isEvalConnector(connector))
    throw new UserInputError(`connector must be one of ${CEO_CONNECTORS.join(", ")} (got "${connector}")`);
  const broken = options.mutation ?? (options.break === undefined ? undefined : breakNamed(options.break));
  if (options.break !== undefined && !broken)
    throw new UserInputError(`unknown break "${options.break}"; breaks: ${Object.keys(BREAKS).join(", ")}`);
  if (options.maxCostUsd !== undefined && !(Number.isFinite(options.maxCostUsd) && options.maxCostUsd > 0))
    throw new UserInputError(`--max-cost-usd must be a number of USD > 0 (got ${options.maxCostUsd})`);
  const caps = checkCaps(options.caps ?? {});
  const cassettes = await cassetteConfig(options);
  // Claude Code and Codex call the model themselves: their cassettes record the wake's event stream
  // (cassette/harness-cassette.ts, wired in run-sample.ts), so every connector kind records.
  const env =
    cassettes?.mode === "replay"
      ? replayEnv(options.env ?? process.env, options.onNotice)
      : (options.env ?? process.env);
  const concurrency = options.concurrency ?? defaultConcurrency();
  // Readiness (keys, base URLs) before anything else: a run that cannot start fails in a second.
  const endpoint = await openEndpoint({
    connector,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    env,
    concurrency,
    replay: cassettes?.mode === "replay",
  });
  try {
    // The prompt contract before any sample: texts that contradict the code are not worth sampling.
    const contract = checkPromptContract();
    if (contract.length > 0)
      throw new UserInputError(
        `the prompt contract does not hold (static check, see cadre prompts check):\n${contract.map((p) => `  ${describeContractProblem(p)}`).join("\n")}`,
      );
    const profile = profileDriver(options.profile);
    const scenarios = await loadScenarios(options.scenarioDirs, options.only);
    options.onNotice?.(
      `caps ${describeCaps(caps)}; whole run: ${options.maxCostUsd !== undefined ? `$${options.maxCostUsd} (--max-cost-usd)` : "no cost limit (--max-cost-usd X sets one)"}`,
    );
    const untrusted = untrustedCostNotice(endpoint.model, options.maxCostUsd);
    if (untrusted) options.onNotice?.(`warning: ${untrusted}`);
    const result = await runSuite({
      scenarios,
      samples: options.samples,
      seed: options.seed ?? freshRunSeed(),
      concurrency,
      profile,
      env: endpoint.env,
      caps,
      ...endpoint.sample,
      standin: endpoint.standin,
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
      ...(options.cadreCommand ? { cadreCommand: options.cadreCommand } : {}),
      ...(broken ? { break: broken } : {}),
      ...(cassettes ? { cassettes } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      onSkip: (skip) => options.onNotice?.(`skipped ${skip.scenarioId}#${skip.sample}: ${skip.reason}`),
    });
    return endpoint.gateway
      ? { ...result, rateLimit: endpoint.gateway.stats(), rateTimeline: [...endpoint.gateway.timeline] }
      : result;
  } finally {
    await endpoint.close();
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
  for (const kind of CONNECTOR_KINDS) {
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
  /**
   * The connector's sensitivity record; default .cadre/sensitivity/<connector>.json. Used only when
   * it is this run's own (connector, model, prompts, scenarios, k, seed, code): a file cannot lift a run.
   */
  sensitivityFile?: string;
  /** Where report.json, report.md, report.html and the candidate's traces (candidate/) go. */
  out: string;
  settings?: Partial<CompareSettings>;
  /** Compare even when the baseline's connector or model differs from the candidate's (the report says so). */
  crossSource?: boolean;
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
  crossSource = false,
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
  const merged = { ...DEFAULT_COMPARE_SETTINGS, ...settings };
  const split = splitCaptured(candidateRun);
  const report = withCaptured(
    compareRuns(baseline, split.ordinary, merged, new Date(), await measurementFor(candidateRun, merged.k)),
    split.captured,
    candidateRun.traces,
  );
  const baseSource = {
    connector: baseline.manifest.connector,
    model: modelOfTraces(baseline.traces.values()),
  };
  const candSource = { connector: m.connector, model: modelOfTraces(candidate.traces.values()) };
  report.run = runSection(
    { ...candidateRun, ...(m.skipped ? { skipped: m.skipped } : {}) },
    {
      baseline: sourceText(baseSource),
      candidate: sourceText(candSource),
      crossSource: checkSources(baseSource, candSource, crossSource),
    },
  );
  return { report, files: await writeReport(out, report), baseline };
}

/**
 * The candidate's measurement: its source, and its connector's sensitivity certificate — used only
 * when it is this run's own (connector, model, prompts, scenarios, k, seed, code; certificate.ts).
 */
export async function measurementFor(
  run: SuiteResult,
  k: number,
  file?: string,
): Promise<{ measurement: Measurement; sensitivity: EvalReport["measurement"]["sensitivity"] }> {
  const traces = [...run.traces.values()].flat();
  const where = file ?? sensitivityFile(run.connector);
  const read = await readSensitivity(where);
  const facts = await runFacts(run, k);
  const figures = read.state === "current" ? scoreOf(read.record.mutants) : undefined;
  return {
    measurement: measurementOf(traces, facts, read, where),
    sensitivity:
      read.state === "current" && figures
        ? {
            connector: read.record.connector,
            detected: figures.killed,
            total: figures.total - figures.equivalent,
            createdAt: read.record.createdAt,
            file: where,
          }
        : null,
  };
}

export async function evaluateCandidate(options: EvaluateOptions): Promise<Evaluation> {
  // The baseline is read first: a bad baseline fails before minutes of sampling.
  const baseline = await readRecording(options.baseline);
  // A live candidate is compared only with a baseline of its own source: checked before any sample.
  const connector = options.connector ?? "offline";
  const baseSource = {
    connector: baseline.manifest.connector,
    model: modelOfTraces(baseline.traces.values()),
  };
  const candSource = isEvalConnector(connector)
    ? connector === "offline"
      ? { connector, model: null }
      : {
          connector: labelFor(connector, modelFor(connector, options.model)),
          model: modelFor(connector, options.model),
        }
    : undefined;
  const crossSource = candSource ? checkSources(baseSource, candSource, options.crossSource ?? false) : false;
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
  const settings = { ...DEFAULT_COMPARE_SETTINGS, ...options.settings };
  // Captured scenarios are judged against their capture, the others against the baseline.
  const split = splitCaptured(result);
  const report = withCaptured(
    compareRuns(
      baseline,
      split.ordinary,
      settings,
      new Date(),
      await measurementFor(result, settings.k, options.sensitivityFile),
    ),
    split.captured,
    result.traces,
  );
  report.run = runSection(result, {
    baseline: sourceText(baseSource),
    candidate: sourceText({ connector: result.connector, model: modelOfTraces(result.traces.values()) }),
    crossSource,
  });
  return { report, files: await writeReport(options.out, report), baseline };
}
