// The scale section's figures: an operation's cost at a size beside its cost at a smaller one —
// wall, CPU and statements, medians, with the range of the ratios of the i-th runs at each size
// paired (n runs; both sizes ran the same operations, one after the other, in this process).
import { atMost, type BenchFigure, figure } from "../registry.js";
import { range } from "../stats.js";
import type { OpCost, OpSample } from "./measure-op.js";

function pairedRange(cost: OpCost, base: OpCost, of: (s: OpSample) => number) {
  const n = Math.min(cost.samples.length, base.samples.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    const b = of(base.samples[i]!);
    ratios.push(b !== 0 ? of(cost.samples[i]!) / b : 0);
  }
  return { range: range(ratios), n };
}

/** `target`: the most CPU the larger size may cost, as a multiple of the smaller (none: reported only). */
export function costFigures(
  what: string,
  size: string,
  cost: OpCost,
  baseSize: string,
  base: OpCost,
  target?: number,
): BenchFigure[] {
  const cpuTarget = target ? atMost(target) : undefined;
  return [
    figure(
      `${what} at ${size}: wall`,
      cost.ms,
      "ms/op",
      `at ${baseSize}`,
      base.ms,
      undefined,
      pairedRange(cost, base, (s) => s.ms),
    ),
    figure(
      `${what} at ${size}: CPU`,
      cost.cpuMs,
      "ms/op",
      `at ${baseSize}`,
      base.cpuMs,
      cpuTarget,
      pairedRange(cost, base, (s) => s.cpuMs),
    ),
    figure(
      `${what} at ${size}: statements`,
      cost.statements,
      "stmts/op",
      `at ${baseSize}`,
      base.statements,
      undefined,
      pairedRange(cost, base, (s) => s.statements),
    ),
  ];
}
