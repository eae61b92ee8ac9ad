// One operation's cost, as the scale benchmark reports it: wall ms, this process's CPU ms and the
// SQL statements it ran; the median of several runs of it, after one unmeasured run (the first run
// of an operation on a fresh store prepares its statements and warms its code paths). The samples
// are kept, so that the i-th run at one size pairs with the i-th at another (the figure's range).
import { performance } from "node:perf_hooks";
import { median } from "../stats.js";
import { statementsSoFar } from "./statements.js";

export interface OpSample {
  ms: number;
  cpuMs: number;
  statements: number;
}

export interface OpCost extends OpSample {
  samples: OpSample[];
}

/** Runs op(0) unmeasured, then op(1..runs) measured. */
export async function costOf(runs: number, op: (i: number) => Promise<unknown>): Promise<OpCost> {
  await op(0);
  const samples: OpSample[] = [];
  for (let i = 1; i <= runs; i++) {
    const statements = statementsSoFar();
    const cpu = process.cpuUsage();
    const start = performance.now();
    await op(i);
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    samples.push({ ms, cpuMs: (used.user + used.system) / 1000, statements: statementsSoFar() - statements });
  }
  return {
    ms: median(samples.map((s) => s.ms)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    statements: median(samples.map((s) => s.statements)),
    samples,
  };
}
