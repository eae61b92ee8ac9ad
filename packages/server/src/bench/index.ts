// The server's load benchmark, each figure beside the same work done bare (bare.ts) in the same
// process and run: GET /healthz, the agent list (auth + one read), the legacy hire POST, an
// approval decision, and SSE fan-out to many subscribers. The load comes from another process
// (options.drive: the bench's forked generator; 10 connections, loopback), in paired rounds.
// Speed is measured here only, never asserted in tests.
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createCompany, loadCompanyState } from "@cadre/company";
import { openStore } from "@cadre/store";
import { startServer, type RunningServer } from "../server.js";
import type { BareFanout, BareServer } from "./bare.js";

export interface BenchOptions {
  /** Runs one load from another process (the bench's forked load generator). */
  drive: LoadDrive;
  /** Requests per GET measurement (default 3000). */
  requests?: number;
  /** Hires (and decisions) per POST measurement (default 1500). */
  hires?: number;
  connections?: number;
  /** Paired rounds per load figure (default 5). */
  rounds?: number;
  subscribers?: number;
  /** Events appended for the fan-out measurement (default 2000). */
  events?: number;
  log?: (line: string) => void;
}

/** One load figure of the server beside the same work done bare (bare.ts): every paired round. */
export interface ServerFigure {
  name: string;
  unit: string;
  baselineName: string;
  rounds: PairedRound[];
}

/** SSE fan-out: one round, Cadre then bare (the delivery rate, not a request rate). */
export interface FanoutFigure {
  name: string;
  unit: string;
  value: number;
  baseline: number;
  baselineName: string;
}

export interface ServerBenchResult {
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  store: string;
  connections: number;
  healthz: ServerFigure;
  list: ServerFigure;
  hire: ServerFigure;
  decision: ServerFigure;
  sse: FanoutFigure;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** One load for the load generator (which runs in another process than this server). */
export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  connections: number;
  /** The requests, sent in this order over the connections; a GET repeats one path `amount` times. */
  requests: { path: string; amount: number } | Array<{ path: string; body?: string }>;
}

export interface LoadResult {
  responses: number;
  non2xx: number;
  errors: number;
  /** Responses per second from the first response to the last: (responses − 1) ÷ that span. */
  perSec: number;
  /** Per-request latency percentiles (ms), from every response's own timing. */
  p50Ms: number;
  p99Ms: number;
  /** Seconds from the first request sent to the last response. */
  seconds: number;
}

export type LoadDrive = (spec: LoadSpec) => Promise<LoadResult>;

const headers = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

/** One paired round: Cadre's load and the bare server's, run back to back. */
export interface PairedRound {
  cadre: LoadResult;
  bare: LoadResult;
}

/**
 * Cadre and bare in `rounds` paired rounds, the order alternating (ABBA...) so that load on the
 * machine and drift hit both alike; every round is kept (the caller reports median and range).
 */
async function pair(
  name: string,
  unit: string,
  baselineName: string,
  cadre: () => Promise<LoadResult>,
  bare: () => Promise<LoadResult>,
  rounds: number,
): Promise<ServerFigure> {
  const kept: PairedRound[] = [];
  for (let i = 0; i < rounds; i++) {
    let c: LoadResult;
    let b: LoadResult;
    if (i % 2 === 0) {
      c = await cadre();
      b = await bare();
    } else {
      b = await bare();
      c = await cadre();
    }
    if (c.non2xx > 0 || c.errors > 0)
      throw new Error(`${name}: ${c.non2xx} answers were not 2xx, ${c.errors} failed`);
    if (b.non2xx > 0 || b.errors > 0)
      throw new Error(`${name} (bare): ${b.non2xx} answers were not 2xx, ${b.errors} failed`);
    kept.push({ cadre: c, bare: b });
  }
  return { name, unit, baselineName, rounds: kept };
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

/** Hires per company in the hire measurement (on both sides): teams grow to this size. */
const PER_COMPANY = 150;

/** Companies of the largest team size, so that every hire request is a real hire. */
async function hireCompanies(server: RunningServer, hires: number, tag: string): Promise<string[]> {
  const companies: string[] = [];
  for (let i = 0; i * PER_COMPANY < hires; i++) {
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

export async function benchServer(options: BenchOptions): Promise<ServerBenchResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  // Loaded here, not at module load: importing @cadre/server (the CLI does, for `cadre serve`)
  // must not load the bare baselines.
  const { startBareFanout, startBareServer } = await import("./bare.js");
  const requests = options.requests ?? 3000;
  const hires = options.hires ?? 1500;
  const connections = options.connections ?? 10;
  const rounds = options.rounds ?? 5;
  const subscribers = options.subscribers ?? 100;
  const events = options.events ?? 2000;
  const drive = options.drive;
  const dir = await mkdtemp(join(tmpdir(), "cadre-bench-"));
  const store = await openStore({ path: join(dir, "cadre.db") });
  const server = await startServer({ store, port: 0, dataDir: dir, env: {}, log: () => {} });
  let bare: BareServer | undefined;
  let fanout: BareFanout | undefined;
  try {
    bare = await startBareServer(dir);
    fanout = await startBareFanout();
    const b = bare;
    const get = (url: string, token: string, path: string, amount = requests) =>
      drive({ url, method: "GET", headers: headers(token), connections, requests: { path, amount } });
    const post = (
      url: string,
      token: string,
      list: Array<{ path: string; body?: string }>,
      c = connections,
    ) => drive({ url, method: "POST", headers: headers(token), connections: c, requests: list });

    log(`server: GET /healthz, ${rounds} paired rounds of ${requests} requests`);
    const healthz = await pair(
      "GET /healthz",
      "req/s",
      "bare Hono",
      () => get(server.url, server.operatorToken, "/healthz"),
      () => get(b.url, b.token, "/healthz"),
      rounds,
    );

    log("server: GET /api/companies/{id}/agents");
    // The same page on both sides: a CEO and five hires here, six hires there.
    const listed = await hireCompanies(server, 1, "list");
    const path = `/api/companies/${listed[0]}/agents`;
    await post(
      server.url,
      server.operatorToken,
      Array.from({ length: 5 }, (_, i) => ({ path, body: HIRE_BODY(i) })),
      1,
    );
    const barePath = `/api/companies/${b.seedCompanies(6, PER_COMPANY, "list")[0]}/agents`;
    await post(
      b.url,
      b.token,
      Array.from({ length: 6 }, (_, i) => ({ path: barePath, body: HIRE_BODY(i) })),
      1,
    );
    const list = await pair(
      "GET agent list (auth + one page)",
      "req/s",
      "bare Hono + better-sqlite3 select",
      () => get(server.url, server.operatorToken, path),
      () => get(b.url, b.token, barePath),
      rounds,
    );

    log("server: hire POST");
    let batch = 0;
    const hire = await pair(
      "hire POST",
      "hires/s",
      // What the floor omits: the body's schema and text policy, the connector's readiness and the
      // model's pin, the CEO's mode record, the once-per-tool-call record and the feed's signal.
      "bare Hono + better-sqlite3 checks and the same four rows in one transaction",
      async () => {
        const companies = await hireCompanies(server, hires, `hire${batch++}`);
        return post(
          server.url,
          server.operatorToken,
          Array.from({ length: hires }, (_, i) => ({
            path: `/api/companies/${companies[i % companies.length]}/agents`,
            body: HIRE_BODY(i),
          })),
        );
      },
      async () => {
        const companies = b.seedCompanies(hires, PER_COMPANY, `hire${batch++}`);
        return post(
          b.url,
          b.token,
          Array.from({ length: hires }, (_, i) => ({
            path: `/api/companies/${companies[i % companies.length]}/agents`,
            body: HIRE_BODY(i),
          })),
        );
      },
      rounds,
    );

    log("server: approval decision");
    const decision = await pair(
      "approval decision POST",
      "decisions/s",
      "bare Hono + better-sqlite3 update + insert",
      async () => {
        const ids = await pendingApprovals(server, hires, `d${batch++}`);
        return post(
          server.url,
          server.operatorToken,
          ids.map((id) => ({ path: `/api/approvals/${id}/approve`, body: "{}" })),
        );
      },
      async () => {
        const ids = b.seedApprovals(hires, `b${batch++}`);
        return post(
          b.url,
          b.token,
          ids.map((id) => ({ path: `/api/approvals/${id}/approve`, body: "{}" })),
        );
      },
      rounds,
    );

    log(`server: SSE fan-out to ${subscribers} subscribers`);
    const sseCadre = await cadreFanout(server, subscribers, events);
    const sseBare = await bareFanout(fanout, subscribers, events);
    const sse: FanoutFigure = {
      name: `SSE fan-out to ${subscribers} subscribers`,
      unit: "events/s",
      value: round(sseCadre),
      baseline: round(sseBare),
      // The subscribers read in this process, beside both servers: this ratio is pulled toward 1.
      baselineName: "bare node:http writes, no store (subscribers in the bench process)",
    };
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      node: process.version,
      platform: process.platform,
    };
    log(
      `server: ${machine.cpus}× ${machine.cpuModel}, Node ${machine.node}, sqlite (file, WAL); load generator in its own process, ${connections} connections`,
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
