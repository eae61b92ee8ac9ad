// The cache hit rate, defined once for every layer — core's accounting, the company's run summary,
// the evaluation's traces and the dashboard's charts (which cannot load core, hence here; core
// re-exports it from usage/cache-metrics.ts).

/** Share of prompt tokens served from the cache: cacheRead / (input + cacheRead + cacheWrite); 0 when nothing was sent. */
export function cacheHitRate(u: {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}): number {
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  return prompt === 0 ? 0 : u.cacheRead / prompt;
}
