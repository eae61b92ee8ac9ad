// Every scenario × k samples, with bounded parallelism and progress per finished sample.
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { mapBounded } from "./pool.js";
import { runSample, type SampleConfig } from "./run-sample.js";
import { sampleSeed } from "./seeds.js";

export interface SuiteOptions extends SampleConfig {
  scenarios: LoadedScenario[];
  samples: number;
  seed: number;
  concurrency: number;
  onProgress?: (progress: { done: number; total: number; trace: Trace }) => void;
}

export interface SuiteResult {
  profile: string;
  /** The CEO's connector kind. */
  connector: string;
  samples: number;
  seed: number;
  break: string | null;
  scenarios: LoadedScenario[];
  /** Scenario id → its traces, in sample order. */
  traces: Map<string, Trace[]>;
}

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const jobs = options.scenarios.flatMap((loaded) =>
    Array.from({ length: options.samples }, (_, sample) => ({ loaded, sample })),
  );
  let done = 0;
  const traces = await mapBounded(jobs, options.concurrency, async ({ loaded, sample }) => {
    const trace = await runSample(
      loaded,
      sample,
      sampleSeed(options.seed, loaded.scenario.id, sample),
      options,
    );
    options.onProgress?.({ done: ++done, total: jobs.length, trace });
    return trace;
  });
  const byScenario = new Map<string, Trace[]>();
  for (const t of traces) byScenario.set(t.scenarioId, [...(byScenario.get(t.scenarioId) ?? []), t]);
  return {
    profile: options.profile.name,
    connector: options.connectorLabel ?? options.ceoKind ?? "offline",
    samples: options.samples,
    seed: options.seed,
    break: options.break?.name ?? null,
    scenarios: options.scenarios,
    traces: byScenario,
  };
}
