// The benchmark registry of `npm run bench`. A benchmark is a name, a one-line description and a
// function returning its figures; add yours to BENCHMARKS (one file per benchmark beside this one).
// Every figure stands beside its bare baseline, measured in the same process and the same run, so
// that the ratio travels between machines better than the raw number.
import { dashboardBench } from "./dashboard.js";
import { eventQueueBench } from "./event-queue.js";
import { promptAssemblyBench } from "./prompt-assembly.js";
import { serverBench } from "./server.js";
import { translatorsBench } from "./translators.js";
import { cliStartBench } from "./cli-start.js";
import { claudeCodePromptBench } from "./claude-code-prompt.js";
import { wakeStartBench } from "./wake-start.js";
import { workersBench } from "./workers.js";

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  /** The bare baseline of the same work, in the same unit, measured in the same run. */
  baseline: number;
  /** What the baseline is, e.g. "bare Hono + better-sqlite3 insert". */
  baselineName: string;
  /** value ÷ baseline. */
  ratio: number;
  /** The promise this figure is held to, when there is one (measured, never asserted in tests). */
  target?: BenchTarget;
  /** For a figure that is the median of repeated rounds: the lowest and highest round. */
  range?: [number, number];
  /** The same for the baseline. */
  baselineRange?: [number, number];
  /** How many rounds the median and ranges are of. */
  n?: number;
}

export interface BenchTarget {
  /** What is promised, e.g. "≥ 0.6× bare". */
  description: string;
  met: boolean;
}

export interface BenchResult {
  figures: BenchFigure[];
  /** Why a benchmark measured nothing (a missing browser, say); printed and kept in --json. */
  notMeasured?: string;
}

export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<BenchResult>;
}

/** A figure beside its baseline; the ratio is value ÷ baseline (0 when the baseline is 0). */
export function figure(
  name: string,
  value: number,
  unit: string,
  baselineName: string,
  baseline: number,
  target?: (f: { value: number; baseline: number; ratio: number }) => BenchTarget,
): BenchFigure {
  const ratio = baseline !== 0 ? value / baseline : 0;
  return {
    name,
    value,
    unit,
    baseline,
    baselineName,
    ratio,
    ...(target ? { target: target({ value, baseline, ratio }) } : {}),
  };
}

/** Target helpers: a ratio floor (throughput), a ratio ceiling (time), an allowance over the baseline. */
export const atLeast =
  (min: number) =>
  ({ ratio }: { ratio: number }): BenchTarget => ({ description: `≥ ${min}× baseline`, met: ratio >= min });
export const atMost =
  (max: number) =>
  ({ ratio }: { ratio: number }): BenchTarget => ({ description: `≤ ${max}× baseline`, met: ratio <= max });
export const overBy =
  (ms: number) =>
  ({ value, baseline }: { value: number; baseline: number }): BenchTarget => ({
    description: `≤ ${ms} ms over baseline`,
    met: value - baseline <= ms,
  });

export const BENCHMARKS: Benchmark[] = [
  eventQueueBench,
  promptAssemblyBench,
  claudeCodePromptBench,
  translatorsBench,
  serverBench,
  wakeStartBench,
  cliStartBench,
  workersBench,
  dashboardBench,
];
