// Every scenario × k samples, with bounded parallelism and progress per finished sample. Each
// sample starts only with a share of the run's --max-cost-usd reserved (run-cost.ts); when that is
// spent, the samples not started are skipped, and the result says which and why.
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { DEFAULT_SAMPLE_CAPS, type SampleCaps } from "./caps.js";
import { mapBounded } from "./pool.js";
import type { RateStats, RateStep } from "./rate-gateway.js";
import { RunCost, type RunCostSummary } from "./run-cost.js";
import { runSample, type SampleConfig } from "./run-sample.js";
import { sampleSeed } from "./seeds.js";

export interface SuiteOptions extends SampleConfig {
  scenarios: LoadedScenario[];
  samples: number;
  seed: number;
  concurrency: number;
  /** The whole run's cost limit in USD; default none. */
  maxCostUsd?: number;
  onProgress?: (progress: { done: number; total: number; trace: Trace }) => void;
  /** A sample not started (the run's cost limit was spent). */
  onSkip?: (skip: SkippedSample) => void;
}

export interface SkippedSample {
  scenarioId: string;
  sample: number;
  reason: string;
}

export interface SuiteResult {
  profile: string;
  /** The CEO's connector kind. */
  connector: string;
  samples: number;
  seed: number;
  break: string | null;
  scenarios: LoadedScenario[];
  /** Scenario id → its traces, in sample order (skipped samples have none). */
  traces: Map<string, Trace[]>;
  /** The per-sample caps the run enforced (absent on recordings made before they existed). */
  caps?: SampleCaps;
  cost?: RunCostSummary;
  skipped?: SkippedSample[];
  /** The rate gateway's figures (live runs): 429s seen, retries, how far concurrency came down. */
  rateLimit?: RateStats;
  /** The gateway's sends and 429s in order (kept out of reports; tests read the order from it). */
  rateTimeline?: readonly RateStep[];
}

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const jobs = options.scenarios.flatMap((loaded) =>
    Array.from({ length: options.samples }, (_, sample) => ({ loaded, sample })),
  );
  const caps = options.caps ?? DEFAULT_SAMPLE_CAPS;
  const ledger = new RunCost(options.maxCostUsd ?? null);
  const skipped: SkippedSample[] = [];
  let done = 0;
  const traces = await mapBounded(jobs, options.concurrency, async ({ loaded, sample }) => {
    const share = await ledger.reserve(caps.costUsd);
    if (share === null) {
      const skip = {
        scenarioId: loaded.scenario.id,
        sample,
        reason: `the run's --max-cost-usd of $${options.maxCostUsd} was spent before this sample could start`,
      };
      skipped.push(skip);
      options.onSkip?.(skip);
      return undefined;
    }
    let trace: Trace | undefined;
    try {
      trace = await runSample(
        loaded,
        sample,
        sampleSeed(options.seed, loaded.scenario.id, sample),
        { ...options, caps },
        share,
      );
    } finally {
      ledger.settle(share, trace ? (trace.cost?.usd ?? null) : share, trace?.cap?.kind === "run_cost");
    }
    options.onProgress?.({ done: ++done, total: jobs.length, trace: trace as Trace });
    return trace;
  });
  const byScenario = new Map<string, Trace[]>();
  for (const t of traces) if (t) byScenario.set(t.scenarioId, [...(byScenario.get(t.scenarioId) ?? []), t]);
  return {
    profile: options.profile.name,
    connector: options.connectorLabel ?? options.ceoKind ?? "offline",
    samples: options.samples,
    seed: options.seed,
    break: options.break?.name ?? null,
    scenarios: options.scenarios,
    traces: byScenario,
    caps,
    cost: ledger.summary(),
    skipped,
  };
}
