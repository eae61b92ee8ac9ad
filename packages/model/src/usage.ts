// Usage at the edges, defined once beneath every package: the cache hit rate (core's accounting,
// the company's run summary, the evaluation's traces and the dashboard's charts, which cannot load
// core) and the documented JSON shape of a run's counters. Inside Cadre usage is core's `Usage`
// ({ input, output, cacheRead, cacheWrite }, input = uncached input); the HTTP API's run records,
// the CLI's --json summaries (SPEC §4) and trace files name the same counters `inputTokens`, … —
// a contract other people's tests read, mapped here and nowhere else.
import type { UsageCounters } from "./usage-schema.js";

/** Core's Usage, structurally (this package runs beneath core). */
interface Counters {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** Share of prompt tokens served from the cache: cacheRead / (input + cacheRead + cacheWrite); 0 when nothing was sent. */
export function cacheHitRate(u: Omit<Counters, "output"> & { readonly output?: number }): number {
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  return prompt === 0 ? 0 : u.cacheRead / prompt;
}

export function usageCounters(u: Counters): UsageCounters {
  return {
    inputTokens: u.input,
    outputTokens: u.output,
    cacheReadTokens: u.cacheRead,
    cacheWriteTokens: u.cacheWrite,
  };
}

export function usageOfCounters(c: UsageCounters): {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
} {
  return {
    input: c.inputTokens,
    output: c.outputTokens,
    cacheRead: c.cacheReadTokens,
    cacheWrite: c.cacheWriteTokens,
  };
}

/** The `usage` of the CLI's --json summaries (SPEC §4): the counters and the hit rate. */
export function usageSummaryJson(u: Counters): UsageCounters & { cacheHitRate: number } {
  return { ...usageCounters(u), cacheHitRate: cacheHitRate(u) };
}
