// Worker scaling: wakes/s with 1 and with 4 real `cadre worker` processes on one PostgreSQL
// database, in paired interleaved rounds (1, 4, 4, 1, ...), every member's wake waiting on a
// stand-in model that answers each call after LATENCY_MS (I/O-bound, as real wakes are). The
// store is set up once (not timed); each round starts its workers and waits until they are ready,
// lets each take one warm-up wake (a long-lived worker's first wake warms its code paths and
// probes its connector once; not timed), then enqueues one wake per member and runs the clock
// until every wake has ended.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { WakeQueue } from "@cadre/server";
import { reply, startStandin } from "@cadre/standin";
import { openStore, startThrowawayPostgres, type ThrowawayPostgres } from "@cadre/store";
import { backendCpu, backendCpuBetween, cpuMs, machineCpu } from "./cpu.js";
import { membersOnStandin } from "./members.js";
import { type Outcome, startWorkerProcess, type WorkerProcess } from "./processes.js";

export interface WorkerRound {
  workers: number;
  wakes: number;
  seconds: number;
  wakesPerSecond: number;
  failed: number;
  /** CPU time (user + system) of the worker processes per wake, from /proc. */
  cpuMsPerWake: number;
  /** CPU time of the PostgreSQL backends per wake; null when the server is not on this machine. */
  dbCpuMsPerWake: number | null;
  /** Cores busy on the whole machine while the round ran (every process, the bench's and others'). */
  machineBusyCores: number | null;
  /** Model calls that reached the stand-in per wake. */
  modelCallsPerWake: number;
}

export interface WorkerBench {
  rounds: WorkerRound[];
  database: string;
}

export interface WorkerBenchOptions {
  workerCommand: string[];
  latencyMs: number;
  wakes: number;
  /** Worker counts per pair of rounds, e.g. [1, 4]; the order alternates pair by pair. */
  counts: [number, number];
  pairs: number;
  log: (line: string) => void;
}

/** The database to measure on, or why there is none. */
async function database(): Promise<{ url: string; server?: ThrowawayPostgres } | { skipped: string }> {
  const url = process.env["CADRE_BENCH_DATABASE_URL"] ?? process.env["CADRE_TEST_DATABASE_URL"];
  if (url) return { url };
  try {
    const server = await startThrowawayPostgres({ database: "cadre_bench" });
    return { url: server.url, server };
  } catch (error) {
    return { skipped: `skipped: no PostgreSQL (${(error as Error).message.split("\n")[0]})` };
  }
}

export async function benchWorkerProcesses(
  options: WorkerBenchOptions,
): Promise<WorkerBench | { skipped: string }> {
  const db = await database();
  if ("skipped" in db) return db;
  const tag = `cadre_bench_${randomBytes(3).toString("hex")}`;
  const schema = `${tag}_store`;
  const queueSchema = `${tag}_queue`;
  const storeUrl = `${db.url}${db.url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let calls = 0;
  const standin = await startStandin({
    policy: () => reply.text("Done."),
    latency: { firstByteMs: options.latencyMs },
    onRequest: (entry) => {
      if (entry.request !== undefined) calls++;
    },
  });
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-bench-workers-"));
  const store = await openStore({ url: db.url, schema });
  let queue: WakeQueue | undefined;
  try {
    options.log(`workers: setting up ${options.wakes} members on the stand-in model`);
    const members = await membersOnStandin(store, standin.openaiBaseUrl, options.wakes);
    queue = await WakeQueue.open({ url: db.url, schema: queueSchema, supervise: false, log: () => {} });
    const rounds: WorkerRound[] = [];
    for (let pair = 0; pair < options.pairs; pair++) {
      const order = pair % 2 === 0 ? options.counts : ([...options.counts].reverse() as [number, number]);
      for (const workers of order) {
        rounds.push(
          await round(options, workers, members, queue, storeUrl, queueSchema, dataDir, () => calls),
        );
        const r = rounds.at(-1)!;
        options.log(
          `workers: ${r.workers} worker(s): ${r.wakesPerSecond.toFixed(2)} wakes/s, ${r.seconds.toFixed(1)} s, ${r.cpuMsPerWake.toFixed(0)} ms worker CPU${r.dbCpuMsPerWake === null ? "" : ` + ${r.dbCpuMsPerWake.toFixed(0)} ms PostgreSQL CPU`} and ${r.modelCallsPerWake.toFixed(1)} model calls per wake${r.machineBusyCores === null ? "" : `; ${r.machineBusyCores.toFixed(2)} cores busy on the machine`}${r.failed ? `, ${r.failed} failed` : ""}`,
        );
      }
    }
    return { rounds, database: db.server ? "a throwaway local PostgreSQL" : "PostgreSQL (given URL)" };
  } finally {
    await store.close();
    if (queue) {
      await queue.boss.getDb().executeSql(`drop schema if exists "${schema}" cascade`, []);
      await queue.boss.getDb().executeSql(`drop schema if exists "${queueSchema}" cascade`, []);
      await queue.stop().catch(() => {});
    }
    await standin.close();
    await db.server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function round(
  options: WorkerBenchOptions,
  workers: number,
  members: string[],
  queue: WakeQueue,
  storeUrl: string,
  queueSchema: string,
  dataDir: string,
  modelCalls: () => number,
): Promise<WorkerRound> {
  const ended = new Map<string, Outcome>();
  let waiting: { ids: Set<string>; resolve: () => void } | undefined;
  const check = () => {
    if (waiting && [...waiting.ids].every((id) => ended.has(id))) waiting.resolve();
  };
  const untilEnded = (ids: Set<string>) =>
    new Promise<void>((resolve) => {
      waiting = { ids, resolve };
      check();
    });
  const onOutcome = (o: Outcome) => {
    if (o.outcome !== "done" && o.outcome !== "failed") return;
    ended.set(o.wakeId, o);
    check();
  };
  const procs: WorkerProcess[] = [];
  try {
    for (let i = 0; i < workers; i++)
      procs.push(await startWorkerProcess(options.workerCommand, storeUrl, queueSchema, dataDir, onOutcome));
    // One warm-up wake per worker: idle workers each fetch one job at a time, so they share these.
    const warm = await Promise.all(members.slice(0, workers).map((agentId) => queue.enqueue({ agentId })));
    await untilEnded(new Set(warm.map((w) => w.wakeId)));
    const cpuBefore = await Promise.all(procs.map((p) => cpuMs(p.child.pid)));
    const dbBefore = await backendCpu(queue);
    const machineBefore = await machineCpu();
    const callsBefore = modelCalls();
    const start = performance.now();
    const sent = await Promise.all(members.map((agentId) => queue.enqueue({ agentId })));
    const expected = new Set(sent.map((s) => s.wakeId));
    await untilEnded(expected);
    const seconds = (performance.now() - start) / 1000;
    const cpuAfter = await Promise.all(procs.map((p) => cpuMs(p.child.pid)));
    const dbAfter = await backendCpu(queue);
    const machineAfter = await machineCpu();
    const cpu = cpuAfter.reduce<number>((s, v, i) => s + (v ?? 0) - (cpuBefore[i] ?? 0), 0);
    const failed = [...expected].filter((id) => ended.get(id)?.outcome === "failed");
    if (failed.length > 0) options.log(`workers: failed: ${ended.get(failed[0]!)!.line}`);
    return {
      workers,
      wakes: members.length,
      seconds,
      wakesPerSecond: members.length / seconds,
      failed: failed.length,
      cpuMsPerWake: cpu / members.length,
      machineBusyCores:
        machineBefore && machineAfter ? (machineAfter.busy - machineBefore.busy) / 1000 / seconds : null,
      dbCpuMsPerWake: dbAfter.size > 0 ? backendCpuBetween(dbBefore, dbAfter) / members.length : null,
      modelCallsPerWake: (modelCalls() - callsBefore) / members.length,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}
