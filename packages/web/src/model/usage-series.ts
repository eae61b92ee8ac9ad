// The usage numbers the dashboard charts and tabulates, computed from the API's reports or from a
// run's folded `usage` events. The hit rate is the one definition every layer uses (@cadre/model,
// bundled here): cache read / (uncached input + cache read + cache write), 0 when nothing was sent.
import { cacheHitRate } from "@cadre/model";
import type { Usage, UsageSummary } from "../api/types.js";

export { cacheHitRate as hitRate };

/** uPlot's data layout: x values first, then one array per series. */
export interface CacheSeries {
  /** Model call number, from 1. */
  calls: number[];
  /** Hit rate of each call, in percent. */
  perCall: number[];
  /** Hit rate of the run so far (all calls up to this one), in percent. */
  cumulative: number[];
}

export function cacheSeries(calls: readonly Usage[]): CacheSeries {
  const out: CacheSeries = { calls: [], perCall: [], cumulative: [] };
  const sum: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  calls.forEach((u, i) => {
    sum.input += u.input;
    sum.output += u.output;
    sum.cacheRead += u.cacheRead;
    sum.cacheWrite += u.cacheWrite;
    out.calls.push(i + 1);
    out.perCall.push(round(cacheHitRate(u) * 100));
    out.cumulative.push(round(cacheHitRate(sum) * 100));
  });
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** One table row of usage (per agent or per run). */
export interface UsageRow {
  key: string;
  label: string;
  detail: string;
  usage: UsageSummary;
}

/** Rows ordered by total tokens, largest first, then by label. */
export function sortByTotal(rows: UsageRow[]): UsageRow[] {
  return [...rows].sort((a, b) => b.usage.total - a.usage.total || a.label.localeCompare(b.label));
}
