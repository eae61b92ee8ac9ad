// Measurement helpers for `npm run bench`: wall time and heap allocation of a piece of work, and a
// fair comparison of two variants (alternating rounds, medians), all in one process and one run.
import { performance } from "node:perf_hooks";
import { GCProfiler } from "node:v8";
import { median } from "./stats.js";

export interface Sample {
  ms: number;
  /** Bytes allocated on the JS heap while the work ran (GC-reclaimed bytes included). */
  allocatedBytes: number;
}

/**
 * Runs `work` once and measures it. Allocation = heap growth + everything the collections during
 * the run reclaimed, from V8's GC profiler; it counts what the work allocated, not what survived.
 */
export async function sample(work: () => Promise<void> | void): Promise<Sample> {
  const profiler = new GCProfiler();
  profiler.start();
  const before = process.memoryUsage().heapUsed;
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  const after = process.memoryUsage().heapUsed;
  const { statistics } = profiler.stop();
  const reclaimed = statistics.reduce(
    (sum, gc) =>
      sum + Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize),
    0,
  );
  return { ms, allocatedBytes: Math.max(0, after - before + reclaimed) };
}

export type Work = () => Promise<void> | void;

/**
 * Measures several variants of the same work, interleaved round by round (so machine noise hits
 * them alike) after one warm-up each. Time is the best round (the run least disturbed by other
 * processes); allocation is the median round.
 */
export async function measureVariants<K extends string>(
  variants: Record<K, Work>,
  rounds = 15,
): Promise<Record<K, Sample>> {
  const names = Object.keys(variants) as K[];
  for (const name of names) await variants[name]();
  const samples = Object.fromEntries(names.map((n) => [n, [] as Sample[]])) as Record<K, Sample[]>;
  for (let i = 0; i < rounds; i++) {
    // Rotate the order so no variant always runs right after a collection.
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length] as K;
      samples[name].push(await sample(variants[name]));
    }
  }
  return Object.fromEntries(
    names.map((n) => [
      n,
      {
        ms: Math.min(...samples[n].map((s) => s.ms)),
        allocatedBytes: median(samples[n].map((s) => s.allocatedBytes)),
      },
    ]),
  ) as Record<K, Sample>;
}

export interface Comparison {
  baseline: Sample;
  candidate: Sample;
  /** candidate time ÷ baseline time (1.10 = 10% slower). */
  timeRatio: number;
}

export async function compare(baseline: Work, candidate: Work, rounds = 15): Promise<Comparison> {
  const m = await measureVariants({ baseline, candidate }, rounds);
  return { baseline: m.baseline, candidate: m.candidate, timeRatio: m.candidate.ms / m.baseline.ms };
}
