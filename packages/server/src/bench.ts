// The server's load benchmark: the legacy hire POST (hires/s, p99) and SSE fan-out to many
// subscribers (events delivered/s, delivery lag), each reported beside a baseline measured in the
// same run on the same machine (GET /healthz), so the ratios travel between machines better than
// the raw figures. Speed is measured here only, never asserted in tests.
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createCompany, loadCompanyState } from "@cadre/company";
import { openStore } from "@cadre/store";
import type autocannonFn from "autocannon";
import { startServer, type RunningServer } from "./server.js";

export interface BenchOptions {
  /** Requests of the baseline measurement (default 2000). */
  requests?: number;
  /** Hires of the legacy POST measurement (default 1000). */
  hires?: number;
  connections?: number;
  subscribers?: number;
  /** Events appended for the fan-out measurement (default 2000). */
  events?: number;
  log?: (line: string) => void;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

type Autocannon = typeof autocannonFn;

async function measureHealthz(
  autocannon: Autocannon,
  server: RunningServer,
  requests: number,
  connections: number,
) {
  const r = await autocannon({ url: `${server.url}/healthz`, connections, amount: requests });
  return {
    requestsPerSec: round(r.requests.total / r.duration),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** Hires spread over companies of the maximum team size, so that every request is a real hire. */
async function measureHires(
  autocannon: Autocannon,
  server: RunningServer,
  requests: number,
  connections: number,
) {
  const perCompany = 150;
  const companies: string[] = [];
  for (let i = 0; i * perCompany < requests + connections; i++) {
    const c = await createCompany(server.cadre.store, {
      name: `Bench ${i}`,
      goal: "Measure hires.",
      settings: { maxTeamSize: 200 },
    });
    companies.push(c.id);
  }
  let n = 0;
  const r = await autocannon({
    url: server.url,
    connections,
    amount: requests,
    requests: [
      {
        method: "POST",
        headers: { authorization: `Bearer ${server.operatorToken}`, "content-type": "application/json" },
        setupRequest: (request) => {
          const i = n++;
          const body = {
            name: `Lead ${i}`,
            role: "Engineering Lead",
            description: "Leads one engineering team.",
            connectorId: "offline",
            model: "offline-scripted-1",
            department: "engineering",
          };
          return {
            ...request,
            path: `/api/companies/${companies[i % companies.length]}/agents`,
            body: JSON.stringify(body),
          };
        },
      },
    ],
  });
  return {
    hiresPerSec: round(r.requests.total / r.duration),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** One subscriber: counts agent events and records, per event, how long after its write it arrived. */
async function subscribe(
  server: RunningServer,
  companyId: string,
  after: number,
  expected: number,
  lags: number[],
  abort: AbortSignal,
): Promise<number> {
  const response = await fetch(`${server.url}/api/companies/${companyId}/events`, {
    headers: { authorization: `Bearer ${server.operatorToken}`, "last-event-id": String(after) },
    signal: abort,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let got = 0;
  try {
    while (got < expected) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const at = frame.indexOf('"sentAt":');
        if (at < 0) continue;
        lags.push(performance.now() - Number.parseFloat(frame.slice(at + 9)));
        got++;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return got;
}

interface FanoutPhase {
  deliveredPerSec: number;
  lags: number[];
}

/** Appends `events` run events in batches (about what a wake flushes at once), `pauseMs` apart, to `subscribers` live subscribers. */
async function fanoutPhase(
  server: RunningServer,
  subscribers: number,
  events: number,
  pauseMs: number,
): Promise<FanoutPhase> {
  const store = server.cadre.store;
  const company = await createCompany(store, { name: "Fan-out", goal: "Measure SSE." });
  const ceo = (await loadCompanyState(store, company.id)).ceo;
  const runId = `run_bench_${company.id}`;
  await store.insertRun({
    id: runId,
    companyId: company.id,
    agentId: ceo.id,
    trigger: "routine",
    mode: "team-building",
    profile: "semantic",
    cue: "bench",
  });
  const head = (await store.listFeed(company.id)).at(-1)?.id ?? 0;
  const abort = new AbortController();
  const lags: number[] = [];
  const bus = server.cadre.bus as { size?: (id: string) => number };
  const receiving = Array.from({ length: subscribers }, () =>
    subscribe(server, company.id, head, events, lags, abort.signal),
  );
  // Every subscriber attached first: the measurement is delivery, not connection set-up.
  while ((bus.size?.(company.id) ?? subscribers) < subscribers)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  const batch = 16;
  for (let seq = 0; seq < events; seq += batch) {
    const rows = Array.from({ length: Math.min(batch, events - seq) }, (_, i) => ({
      runId,
      companyId: company.id,
      seq: seq + i,
      type: "text_delta",
      data: { type: "text_delta", index: 0, delta: "token ", sentAt: performance.now() },
    }));
    await store.appendRunEvents(rows);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  const delivered = (await Promise.all(receiving)).reduce((a, b) => a + b, 0);
  const elapsed = (performance.now() - started) / 1000;
  abort.abort();
  return { deliveredPerSec: delivered / elapsed, lags: lags.sort((a, b) => a - b) };
}

/**
 * Two phases: a burst, as fast as the store takes it, for the delivery capacity; then the same
 * subscribers fed at a quarter of that capacity, for the lag a client sees when the server keeps up.
 */
async function measureFanout(server: RunningServer, subscribers: number, events: number) {
  const burst = await fanoutPhase(server, subscribers, events, 0);
  const paced = Math.max(1, Math.round(burst.deliveredPerSec / 4 / subscribers));
  const batches = Math.max(5, Math.round(events / 16 / 4));
  const steady = await fanoutPhase(server, subscribers, batches * 16, Math.round((16 / paced) * 1000));
  return {
    subscribers,
    burst: {
      events,
      deliveredPerSec: round(burst.deliveredPerSec),
      lagP50Ms: round(percentile(burst.lags, 50)),
      lagP99Ms: round(percentile(burst.lags, 99)),
    },
    steady: {
      eventsPerSec: paced,
      events: batches * 16,
      lagP50Ms: round(percentile(steady.lags, 50)),
      lagP99Ms: round(percentile(steady.lags, 99)),
      lagMaxMs: round(steady.lags.at(-1) ?? 0),
    },
  };
}

export async function benchServer(options: BenchOptions = {}): Promise<Record<string, unknown>> {
  const log = options.log ?? ((line: string) => console.log(line));
  // Loaded here, not at module load: autocannon is a development dependency, and importing
  // @cadre/server (the CLI does, for `cadre serve`) must not need it.
  const { default: autocannon } = await import("autocannon");
  const requests = options.requests ?? 2000;
  const connections = options.connections ?? 10;
  const dir = await mkdtemp(join(tmpdir(), "cadre-bench-"));
  const store = await openStore({ path: join(dir, "cadre.db") });
  const server = await startServer({ store, port: 0, dataDir: dir, env: {}, log: () => {} });
  try {
    const healthz = await measureHealthz(autocannon, server, requests, connections);
    const hire = await measureHires(autocannon, server, options.hires ?? 1000, connections);
    const fanout = await measureFanout(server, options.subscribers ?? 100, options.events ?? 2000);
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      node: process.version,
      platform: process.platform,
    };
    const result = {
      machine,
      store: "sqlite (file, WAL)",
      baseline: { route: "GET /healthz", connections, ...healthz },
      legacyHire: {
        route: "POST /api/companies/{id}/agents",
        connections,
        ...hire,
        throughputVsBaseline: round(hire.hiresPerSec / healthz.requestsPerSec, 3),
        p99VsBaseline: round(hire.p99Ms / Math.max(healthz.p99Ms, 1), 2),
      },
      sseFanout: {
        ...fanout,
        deliveredVsBaselineRequests: round(fanout.burst.deliveredPerSec / healthz.requestsPerSec, 2),
        steadyLagP99VsBaselineP99: round(fanout.steady.lagP99Ms / Math.max(healthz.p99Ms, 1), 2),
      },
    };
    log(
      `server bench on ${machine.cpus}× ${machine.cpuModel}, Node ${machine.node}, ${result.store}; load generator in the same process`,
    );
    log(
      `  baseline GET /healthz     ${healthz.requestsPerSec} req/s, p50 ${healthz.p50Ms} ms, p99 ${healthz.p99Ms} ms (${connections} connections)`,
    );
    log(
      `  legacy hire POST          ${hire.hiresPerSec} hires/s, p50 ${hire.p50Ms} ms, p99 ${hire.p99Ms} ms, non-2xx ${hire.non2xx} — ${result.legacyHire.throughputVsBaseline}× baseline throughput, p99 ${result.legacyHire.p99VsBaseline}× baseline`,
    );
    log(
      `  SSE fan-out, burst        ${fanout.subscribers} subscribers × ${fanout.burst.events} events: ${fanout.burst.deliveredPerSec} events delivered/s (${result.sseFanout.deliveredVsBaselineRequests}× baseline req/s)`,
    );
    log(
      `  SSE fan-out, steady       ${fanout.steady.eventsPerSec} events/s to each of ${fanout.subscribers}: lag p50 ${fanout.steady.lagP50Ms} ms, p99 ${fanout.steady.lagP99Ms} ms, max ${fanout.steady.lagMaxMs} ms (p99 ${result.sseFanout.steadyLagP99VsBaselineP99}× baseline p99)`,
    );
    return result;
  } finally {
    await server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
