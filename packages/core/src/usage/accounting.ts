// Usage and cache accounting: the one place that turns token counters into totals, cost and the
// cache hit rate, so the CLI, the server and the reports cannot compute them differently.
import { cacheHitRate } from "@cadre/model";
import type { ModelInfo, ModelPrice, Usage } from "../types.js";

// The hit rate is defined once, beneath every package (the dashboard computes it too); core re-exports it.
export { cacheHitRate };

/** A usage figure with everything derived from it. Tokens are counts; cost is USD. */
export interface UsageSummary extends Usage {
  /** input + output + cacheRead + cacheWrite. */
  total: number;
  /** USD from the registry's prices; null when the model's prices are unknown. */
  cost: number | null;
  /** cacheRead / (input + cacheRead + cacheWrite); 0 when nothing was read or written. */
  hitRate: number;
}

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Adds `delta` into `into` (mutating, no allocation: used once per model call). */
export function addUsage(into: Usage, delta: Readonly<Usage>): Usage {
  into.input += delta.input;
  into.output += delta.output;
  into.cacheRead += delta.cacheRead;
  into.cacheWrite += delta.cacheWrite;
  return into;
}

export function sumUsage(items: Iterable<Readonly<Usage>>): Usage {
  const total = emptyUsage();
  for (const u of items) addUsage(total, u);
  return total;
}

export function totalTokens(u: Readonly<Usage>): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** USD for `u` at the model's prices (USD per million tokens, each counter at its own price). */
export function usageCost(u: Readonly<Usage>, price: ModelPrice): number {
  return (
    (u.input * price.input +
      u.output * price.output +
      u.cacheRead * price.cacheRead +
      u.cacheWrite * price.cacheWrite) /
    1_000_000
  );
}

export function summariseUsage(u: Readonly<Usage>, model?: Pick<ModelInfo, "price">): UsageSummary {
  return {
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead,
    cacheWrite: u.cacheWrite,
    total: totalTokens(u),
    cost: model?.price ? usageCost(u, model.price) : null,
    hitRate: cacheHitRate(u),
  };
}

/** Sums summaries that may come from different models: tokens add, costs add (null if any is unknown). */
export function combineSummaries(items: readonly UsageSummary[]): UsageSummary {
  const tokens = sumUsage(items);
  const costs = items.map((s) => s.cost);
  const cost = costs.some((c) => c === null) ? null : costs.reduce<number>((a, c) => a + (c as number), 0);
  return { ...tokens, total: totalTokens(tokens), cost, hitRate: cacheHitRate(tokens) };
}
