// The load generator of `npm run bench`, a forked child of the bench process so that it never
// shares an event loop with the servers it measures. It runs autocannon for each load it is sent
// and times the load itself from every response (autocannon's own rate counts whole ticks of its
// one-second sampler, so it is not used): rate from the first response to the last, latency
// percentiles from each response's time.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { LoadResult, LoadSpec } from "./protocol.js";

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const list = Array.isArray(spec.requests) ? spec.requests : undefined;
  const amount = list ? list.length : (spec.requests as { amount: number }).amount;
  const fixedPath = list ? undefined : (spec.requests as { path: string }).path;
  let next = 0;
  const latencies: number[] = [];
  let first = 0;
  let last = 0;
  let non2xx = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        amount,
        requests: [
          {
            method: spec.method,
            headers: spec.headers,
            setupRequest: (request) => {
              const r = list ? list[next++ % list.length]! : { path: fixedPath! };
              return {
                ...request,
                path: r.path,
                ...("body" in r && r.body !== undefined ? { body: r.body } : {}),
              };
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = latencies.sort((a, b) => a - b);
        const span = (last - first) / 1000;
        resolve({
          responses: latencies.length,
          non2xx,
          errors: result.errors + result.timeouts,
          perSec: span > 0 ? (latencies.length - 1) / span : 0,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          seconds: (last - started) / 1000,
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      const now = performance.now();
      if (latencies.length === 0) first = now;
      last = now;
      latencies.push(responseTime);
      if (statusCode < 200 || statusCode >= 300) non2xx++;
    });
  });
}

// As a forked child (run as its own entry point, not imported): one load per message, its result sent back.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.on("message", (spec: LoadSpec) => {
    runLoad(spec).then(
      (result) => process.send!({ ok: true, result }),
      (error: unknown) => process.send!({ ok: false, error: String(error) }),
    );
  });
}
