// The server's load benchmark, each figure beside the same work done bare (bare.ts) in the same
// process and run: GET /healthz, the agent list (auth + one read), the legacy hire POST, an
// approval decision, and SSE fan-out to many subscribers. Autocannon drives the load from this
// process (10 connections, loopback). Speed is measured here only, never asserted in tests.
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createCompany, loadCompanyState } from "@cadre/company";
import { openStore } from "@cadre/store";
import type autocannonFn from "autocannon";
import { startServer, type RunningServer } from "../server.js";
import type { BareFanout, BareServer } from "./bare.js";

export interface BenchOptions {
  /** Requests per GET measurement (default 3000). */
  requests?: number;
  /** Hires (and decisions) per POST measurement (default 1500). */
  hires?: number;
  connections?: number;
  subscribers?: number;
  /** Events appended for the fan-out measurement (default 2000). */
  events?: number;
  log?: (line: string) => void;
}

/** One measured figure of the server beside the same work done bare (bare.ts), same run. */
export interface ServerFigure {
  name: string;
  unit: string;
  value: number;
  baseline: number;
  baselineName: string;
  /** p99 latency of Cadre and of the bare server, where the figure is a load figure. */
  p99Ms?: { value: number; baseline: number };
}

export interface ServerBenchResult {
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  store: string;
  connections: number;
  healthz: ServerFigure;
  list: ServerFigure;
  hire: ServerFigure;
  decision: ServerFigure;
  sse: ServerFigure;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

type Autocannon = typeof autocannonFn;

interface Load {
  perSec: number;
  p99Ms: number;
  non2xx: number;
}

/** `amount` requests over `connections`; `next(i)` gives the i-th request's path and body. */
async function load(
  autocannon: Autocannon,
  url: string,
  token: string,
  amount: number,
  connections: number,
  method: "GET" | "POST",
  next: (i: number) => { path: string; body?: string },
): Promise<Load> {
  let n = 0;
  // Timed here: autocannon's own duration counts whole ticks of its one-second sampler.
  const started = performance.now();
  const r = await autocannon({
    url,
    connections,
    amount,
    requests: [
      {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        setupRequest: (request) => {
          const { path, body } = next(n++);
          return { ...request, path, ...(body !== undefined ? { body } : {}) };
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  return { perSec: round(r.requests.total / seconds), p99Ms: r.latency.p99, non2xx: r.non2xx };
}

/** Cadre and bare alternately, twice each (best round kept): load on the machine hits both alike. */
async function pair(
  name: string,
  unit: string,
  baselineName: string,
  cadre: () => Promise<Load>,
  bare: () => Promise<Load>,
  rounds = 2,
): Promise<ServerFigure> {
  let best: Load | undefined;
  let bestBare: Load | undefined;
  for (let i = 0; i < rounds; i++) {
    let c: Load;
    let b: Load;
    if (i % 2 === 0) {
      c = await cadre();
      b = await bare();
    } else {
      b = await bare();
      c = await cadre();
    }
    if (c.non2xx > 0) throw new Error(`${name}: ${c.non2xx} answers were not 2xx`);
    if (!best || c.perSec > best.perSec) best = c;
    if (!bestBare || b.perSec > bestBare.perSec) bestBare = b;
  }
  return {
    name,
    unit,
    value: best!.perSec,
    baseline: bestBare!.perSec,
    baselineName,
    p99Ms: { value: best!.p99Ms, baseline: bestBare!.p99Ms },
  };
}

const HIRE_BODY = (i: number) =>
  JSON.stringify({
    name: `Lead ${i}`,
    role: "Engineering Lead",
    description: "Leads one engineering team.",
    connectorId: "offline",
    model: "offline-scripted-1",
    department: "engineering",
  });

/** Companies of the largest team size, so that every hire request is a real hire. */
async function hireCompanies(server: RunningServer, hires: number, tag: string): Promise<string[]> {
  const perCompany = 150;
  const companies: string[] = [];
  for (let i = 0; i * perCompany < hires; i++) {
    const c = await createCompany(server.cadre.store, {
      name: `Bench ${tag} ${i}`,
      goal: "Measure hires.",
      settings: { maxTeamSize: 200 },
    });
    companies.push(c.id);
  }
  return companies;
}

/** Pending strategy approvals spread over companies, each decided once by the measurement. */
async function pendingApprovals(server: RunningServer, count: number, tag: string): Promise<string[]> {
  const store = server.cadre.store;
  const ids: string[] = [];
  const perCompany = 50;
  for (let c = 0; c * perCompany < count; c++) {
    const company = await createCompany(store, { name: `Decide ${tag} ${c}`, goal: "Measure decisions." });
    const ceo = (await loadCompanyState(store, company.id)).ceo;
    for (let i = 0; i < perCompany && ids.length < count; i++) {
      const id = `apr_${tag}_${c}_${i}`;
      await store.insertApproval(
        {
          id,
          companyId: company.id,
          type: "approve_ceo_strategy",
          title: `Strategy ${i}`,
          payload: "Grow carefully.",
          filedByAgentId: ceo.id,
          via: "tool",
        },
        ceo.id,
      );
      ids.push(id);
    }
  }
  return ids;
}

/** One subscriber: counts agent events and records, per event, how long after its write it arrived. */
async function subscribe(
  url: string,
  headers: Record<string, string>,
  expected: number,
  lags: number[],
  abort: AbortSignal,
): Promise<number> {
  const response = await fetch(url, { headers, signal: abort });
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

/** Delivered events/s to `subscribers` live subscribers of a burst of `events` run events, written 16 at a time. */
async function cadreFanout(server: RunningServer, subscribers: number, events: number): Promise<number> {
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
  const url = `${server.url}/api/companies/${company.id}/events`;
  const headers = { authorization: `Bearer ${server.operatorToken}`, "last-event-id": String(head) };
  const receiving = Array.from({ length: subscribers }, () =>
    subscribe(url, headers, events, lags, abort.signal),
  );
  // Every subscriber attached first: the measurement is delivery, not connection set-up.
  while ((bus.size?.(company.id) ?? subscribers) < subscribers)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  for (let seq = 0; seq < events; seq += 16) {
    const rows = Array.from({ length: Math.min(16, events - seq) }, (_, i) => ({
      runId,
      companyId: company.id,
      seq: seq + i,
      type: "text_delta",
      data: { type: "text_delta", index: 0, delta: "token ", sentAt: performance.now() },
    }));
    await store.appendRunEvents(rows);
  }
  const delivered = (await Promise.all(receiving)).reduce((a, b) => a + b, 0);
  const seconds = (performance.now() - started) / 1000;
  abort.abort();
  return delivered / seconds;
}

/** The same burst, the same frames, written straight to the responses (no store, no reader). */
async function bareFanout(fanout: BareFanout, subscribers: number, events: number): Promise<number> {
  const abort = new AbortController();
  const lags: number[] = [];
  const receiving = Array.from({ length: subscribers }, () =>
    subscribe(fanout.url, {}, events, lags, abort.signal),
  );
  while (fanout.subscribers() < subscribers) await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  for (let seq = 0; seq < events; seq += 16) {
    let chunk = "";
    for (let i = seq; i < Math.min(seq + 16, events); i++) {
      const data = { type: "text_delta", index: 0, delta: "token ", sentAt: performance.now() };
      chunk += `id: ${i + 1}\nevent: agent_event\ndata: ${JSON.stringify({ feedId: i + 1, kind: "agent_event", event: data })}\n\n`;
    }
    fanout.publish(chunk);
    await new Promise((resolve) => setImmediate(resolve)); // the writer is asynchronous, as a store is
  }
  const delivered = (await Promise.all(receiving)).reduce((a, b) => a + b, 0);
  const seconds = (performance.now() - started) / 1000;
  abort.abort();
  return delivered / seconds;
}

export async function benchServer(options: BenchOptions = {}): Promise<ServerBenchResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  // Loaded here, not at module load: autocannon is a development dependency, and importing
  // @cadre/server (the CLI does, for `cadre serve`) must not need it (nor the bare baselines).
  const { default: autocannon } = await import("autocannon");
  const { startBareFanout, startBareServer } = await import("./bare.js");
  const requests = options.requests ?? 3000;
  const hires = options.hires ?? 1500;
  const connections = options.connections ?? 10;
  const subscribers = options.subscribers ?? 100;
  const events = options.events ?? 2000;
  const dir = await mkdtemp(join(tmpdir(), "cadre-bench-"));
  const store = await openStore({ path: join(dir, "cadre.db") });
  const server = await startServer({ store, port: 0, dataDir: dir, env: {}, log: () => {} });
  let bare: BareServer | undefined;
  let fanout: BareFanout | undefined;
  try {
    bare = await startBareServer(dir);
    fanout = await startBareFanout();
    const b = bare;
    const cadreGet = (path: string) => () =>
      load(autocannon, server.url, server.operatorToken, requests, connections, "GET", () => ({ path }));
    const bareGet = (path: string) => () =>
      load(autocannon, b.url, b.token, requests, connections, "GET", () => ({ path }));

    log("server: GET /healthz");
    const healthz = await pair(
      "GET /healthz",
      "req/s",
      "bare Hono",
      cadreGet("/healthz"),
      bareGet("/healthz"),
    );

    log("server: GET /api/companies/{id}/agents");
    const listed = await hireCompanies(server, 1, "list");
    for (let i = 0; i < 5; i++)
      await load(autocannon, server.url, server.operatorToken, 1, 1, "POST", () => ({
        path: `/api/companies/${listed[0]}/agents`,
        body: HIRE_BODY(i),
      }));
    for (let i = 0; i < 6; i++)
      await load(autocannon, b.url, b.token, 1, 1, "POST", () => ({
        path: "/api/companies/bare/agents",
        body: HIRE_BODY(i),
      }));
    const list = await pair(
      "GET agent list (auth + one read)",
      "req/s",
      "bare Hono + better-sqlite3 select",
      cadreGet(`/api/companies/${listed[0]}/agents`),
      bareGet("/api/companies/bare/agents"),
    );

    log("server: legacy hire POST");
    let batch = 0;
    const hire = await pair(
      "hire POST",
      "hires/s",
      "bare Hono + better-sqlite3 insert",
      async () => {
        const companies = await hireCompanies(server, hires, `hire${batch++}`);
        return load(autocannon, server.url, server.operatorToken, hires, connections, "POST", (i) => ({
          path: `/api/companies/${companies[i % companies.length]}/agents`,
          body: HIRE_BODY(i),
        }));
      },
      () =>
        load(autocannon, b.url, b.token, hires, connections, "POST", (i) => ({
          path: "/api/companies/bare/agents",
          body: HIRE_BODY(i),
        })),
    );

    log("server: approval decision");
    const decision = await pair(
      "approval decision POST",
      "decisions/s",
      "bare Hono + better-sqlite3 update + insert",
      async () => {
        const ids = await pendingApprovals(server, hires, `d${batch++}`);
        return load(autocannon, server.url, server.operatorToken, ids.length, connections, "POST", (i) => ({
          path: `/api/approvals/${ids[i]}/approve`,
          body: "{}",
        }));
      },
      async () => {
        const ids = b.seedApprovals(hires, `b${batch++}`);
        return load(autocannon, b.url, b.token, ids.length, connections, "POST", (i) => ({
          path: `/api/approvals/${ids[i]}/approve`,
          body: "{}",
        }));
      },
    );

    log(`server: SSE fan-out to ${subscribers} subscribers`);
    const sseCadre = await cadreFanout(server, subscribers, events);
    const sseBare = await bareFanout(fanout, subscribers, events);
    const sse: ServerFigure = {
      name: `SSE fan-out to ${subscribers} subscribers`,
      unit: "events/s",
      value: round(sseCadre),
      baseline: round(sseBare),
      baselineName: "bare node:http writes, no store",
    };
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      node: process.version,
      platform: process.platform,
    };
    log(
      `server: ${machine.cpus}× ${machine.cpuModel}, Node ${machine.node}, sqlite (file, WAL); load generator in the same process, ${connections} connections`,
    );
    return { machine, store: "sqlite (file, WAL)", connections, healthz, list, hire, decision, sse };
  } finally {
    await fanout?.close();
    await bare?.close();
    await server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
