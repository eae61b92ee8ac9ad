// One line of usage for a terminal, the same everywhere (demo, wake, usage reports).
import type { UsageSummary } from "@cadre/core";

export function formatCost(cost: number | null): string {
  if (cost === null) return "cost unknown (no known price)";
  return `cost $${cost < 0.01 && cost > 0 ? cost.toFixed(6) : cost.toFixed(4)}`;
}

export function formatUsage(u: UsageSummary): string {
  return `input ${u.input}, output ${u.output}, cache read ${u.cacheRead}, cache write ${u.cacheWrite}, total ${u.total}, ${formatCost(u.cost)}, cache hit rate ${(u.hitRate * 100).toFixed(1)}%`;
}
