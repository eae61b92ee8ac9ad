// The benchmark registry of `npm run bench`. A benchmark is a name, a one-line description and a
// function returning its figures; add yours to BENCHMARKS (one file per benchmark beside this one).
import { dashboardBench } from "./dashboard.js";
import { eventQueueBench } from "./event-queue.js";
import { promptAssemblyBench } from "./prompt-assembly.js";
import { serverBench } from "./server.js";
import { translatorsBench } from "./translators.js";
import { workersBench } from "./workers.js";

export interface BenchFigure {
  label: string;
  value: number;
  unit: string;
}

export interface BenchTarget {
  /** What is promised, e.g. "event queue ≤ 10% over a bare async iterator". */
  description: string;
  pass: boolean;
}

export interface BenchResult {
  figures: BenchFigure[];
  targets?: BenchTarget[];
}

export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<BenchResult>;
}

export const BENCHMARKS: Benchmark[] = [
  eventQueueBench,
  promptAssemblyBench,
  translatorsBench,
  serverBench,
  workersBench,
  dashboardBench,
];
