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
import { scaleBench } from "./scale.js";
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
  /**
   * Lowest and highest ratio over the n paired rounds (each round's value ÷ the baseline measured
   * beside it); a single measurement has the range [ratio, ratio] and n 1.
   */
  range: [number, number];
  /** Rounds measured (value and baseline are their medians). */
  n: number;
  /** The promise this figure is held to, when there is one (measured, never asserted in tests). */
  target?: BenchTarget;
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

/**
 * A figure beside its baseline; the ratio is value ÷ baseline (0 when the baseline is 0). `rounds`
 * gives the per-round ratio range and n of paired rounds; without it, one measurement.
 */
export function figure(
  name: string,
  value: number,
  unit: string,
  baselineName: string,
  baseline: number,
  target?: (f: { value: number; baseline: number; ratio: number }) => BenchTarget,
  rounds?: { range: [number, number]; n: number },
): BenchFigure {
  const ratio = baseline !== 0 ? value / baseline : 0;
  return {
    name,
    value,
    unit,
    baseline,
    baselineName,
    ratio,
    range: rounds?.range ?? [ratio, ratio],
    n: rounds?.n ?? 1,
    ...(target ? { target: target({ value, baseline, ratio }) } : {}),
  };
}

/** A figure from paired rounds (stats.ts `paired`): medians, per-round ratio range, n. */
export function pairedFigure(
  name: string,
  unit: string,
  baselineName: string,
  p: { value: number; baseline: number; range: [number, number]; n: number },
  target?: (f: { value: number; baseline: number; ratio: number }) => BenchTarget,
): BenchFigure {
  return figure(name, p.value, unit, baselineName, p.baseline, target, { range: p.range, n: p.n });
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
  scaleBench,
  dashboardBench,
];
