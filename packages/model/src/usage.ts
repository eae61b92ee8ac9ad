// Usage, defined once beneath every package: the `Usage` shape (core's events and accounting, the
// store's run records and the dashboard all speak it; core re-exports it), the cache hit rate (core's
// accounting, the company's run summary, the evaluation's traces and the dashboard's charts, which
// cannot load core) and the documented JSON shape of a run's counters. Inside Cadre usage is
// `Usage` ({ input, output, cacheRead, cacheWrite }, input = uncached input); the HTTP API's run
// records, the CLI's --json summaries (SPEC §4) and trace files name the same counters
// `inputTokens`, … — a contract other people's tests read, mapped here and nowhere else.
import type { UsageCounters } from "./usage-schema.js";

/** Token usage of one model call (or a sum of them). `input` counts uncached input tokens only. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

type Counters = Readonly<Usage>;

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

export function usageOfCounters(c: UsageCounters): Usage {
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
