// Wakes per second with 1, 2 and 4 workers against the offline connector, on one PostgreSQL
// server. Each round gets a fresh schema: C companies are created (not timed), the workers are
// started and ready (not timed), then one wake per CEO is enqueued and the clock runs until every
// wake has ended. A wake is a full CEO run: team building, hires, a strategy filed.
// With `latencyMs`, every model call waits that long before the offline model answers (as a real
// provider keeps a wake waiting: I/O-bound), and the workers are WakeWorkers in this process (the
// code a `cadre worker` process runs), since the simulated latency is injected at the model call.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus } from "node:os";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createCompany } from "@cadre/company";
import type { StreamFn } from "@cadre/core";
import { openStore, startThrowawayPostgres, type ThrowawayPostgres } from "@cadre/store";
import { WakeQueue } from "./wake-queue.js";
import { WakeWorker } from "./worker.js";

export interface WorkerBenchOptions {
  /** The command that starts one worker, e.g. [node, path/to/cadre.js, "worker"]; options are appended. */
  workerCommand: string[];
  /** A database to create scratch schemas in; default a throwaway local server. */
  url?: string;
  /** Worker process counts, one round each; default [1, 2, 4]. */
  workers?: number[];
  /** Companies, hence wakes, per round; default 40. */
  wakes?: number;
  /** Simulated model latency per call (ms): in-process workers, each model call waits this long. */
  latencyMs?: number;
  log?: (line: string) => void;
}

export interface WorkerBenchRound {
  workers: number;
  wakes: number;
  seconds: number;
  wakesPerSecond: number;
  failed: number;
  /** This process's CPU time per wake (in-process workers: the work one event loop does per wake). */
  cpuMsPerWake: number;
  /** Model calls per wake (in-process workers), each waiting the simulated latency. */
  modelCallsPerWake: number;
}

export interface WorkerBenchResult {
  rounds: WorkerBenchRound[];
  /** wakes/s with the most workers ÷ wakes/s with the fewest. */
  scaling: number;
  cpus: number;
}

function startWorker(command: string[], url: string, queueSchema: string): Promise<ChildProcess> {
  const [bin, ...args] = command;
  const child = spawn(
    bin!,
    [...args, "--database", url, "--queue-schema", queueSchema, "--concurrency", "1"],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
    },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on("line", (line) => {
      if (/ ready: /.test(line)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`a bench worker exited (${code}) before it was ready`)));
  });
}

/** Every model call waits `ms` first: the provider's latency, which a wake spends waiting. */
let modelCalls = 0;

export function withLatency(ms: number): (inner: StreamFn) => StreamFn {
  return (inner) =>
    async (...args) => {
      modelCalls++;
      await sleep(ms);
      return inner(...args);
    };
}

function startInProcess(
  url: string,
  schema: string,
  queueSchema: string,
  latencyMs: number,
  onOutcome: () => void,
) {
  return WakeWorker.start({
    url,
    schema,
    queue: { schema: queueSchema },
    concurrency: 1,
    env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
    wakeDefaults: { wrapStreamFn: withLatency(latencyMs) },
    onOutcome,
    log: () => {},
  });
}

async function round(
  options: WorkerBenchOptions,
  url: string,
  workers: number,
  wakes: number,
): Promise<WorkerBenchRound> {
  const tag = `cadre_bench_${randomBytes(3).toString("hex")}`;
  const schema = `${tag}_store`;
  const queueSchema = `${tag}_queue`;
  const storeUrl = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = await openStore({ url, schema });
  const children: ChildProcess[] = [];
  let stopInProcess = async () => {};
  let queue: WakeQueue | undefined;
  try {
    const ceos: string[] = [];
    for (let i = 0; i < wakes; i++) {
      const company = await createCompany(store, { name: `Bench ${i}` });
      ceos.push((await store.listAgents(company.id))[0]!.id);
    }
    queue = await WakeQueue.open({ url, schema: queueSchema, supervise: false, log: () => {} });
    const inProcess: WakeWorker[] = [];
    // In-process workers say when a wake ends: the wakes are read then (and at least every second),
    // not every 20 ms, so the measuring does not compete with the measured for the database.
    const outcome = outcomeSignal();
    stopInProcess = () => Promise.all(inProcess.map((w) => w.stop(5_000))).then(() => {});
    for (let i = 0; i < workers; i++) {
      if (options.latencyMs === undefined)
        children.push(await startWorker(options.workerCommand, storeUrl, queueSchema));
      else
        inProcess.push(
          await startInProcess(url, schema, queueSchema, options.latencyMs, () => outcome.notify()),
        );
    }
    const start = performance.now();
    const cpu = process.cpuUsage();
    const calls = modelCalls;
    const sent = await Promise.all(ceos.map((agentId) => queue!.enqueue({ agentId })));
    const ids = sent.map((s) => s.wakeId);
    let ended = 0;
    let failed = 0;
    while (ended < ids.length) {
      await (inProcess.length > 0 ? outcome.next(1000) : sleep(20));
      const states = await Promise.all(ids.map((id) => store.getWake(id)));
      ended = states.filter((w) => w?.status === "done" || w?.status === "failed").length;
      failed = states.filter((w) => w?.status === "failed").length;
    }
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuMsPerWake = (used.user + used.system) / 1000 / wakes;
    const modelCallsPerWake = (modelCalls - calls) / wakes;
    return {
      workers,
      wakes,
      seconds,
      wakesPerSecond: wakes / seconds,
      failed,
      cpuMsPerWake,
      modelCallsPerWake,
    };
  } finally {
    await stopInProcess();
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))),
    );
    await store.close();
    if (queue) {
      // The scratch schemas go, through the connection at hand (the workers are gone).
      await queue.boss.getDb().executeSql(`drop schema if exists "${schema}" cascade`, []);
      await queue.boss.getDb().executeSql(`drop schema if exists "${queueSchema}" cascade`, []);
      await queue.stop().catch(() => {});
    }
  }
}

/** A wake ended somewhere: `next(ms)` resolves at the next one (or one seen since the last), or after ms. */
function outcomeSignal() {
  let seen = false;
  let wake: (() => void) | undefined;
  return {
    notify() {
      seen = true;
      wake?.();
    },
    async next(ms: number) {
      if (!seen) {
        const timer = new Promise<void>((resolve) => {
          const t = setTimeout(resolve, ms);
          wake = () => (clearTimeout(t), resolve());
        });
        await timer;
      }
      seen = false;
      wake = undefined;
    },
  };
}

/** Runs one round per worker count and reports wakes/s and the scaling ratio. */
export async function benchWorkers(options: WorkerBenchOptions): Promise<WorkerBenchResult> {
  const log = options.log ?? (() => {});
  let server: ThrowawayPostgres | undefined;
  const url = options.url ?? (server = await startThrowawayPostgres({ database: "cadre_bench" })).url;
  try {
    const rounds: WorkerBenchRound[] = [];
    for (const workers of options.workers ?? [1, 2, 4]) {
      log(
        `workers: ${workers} ${options.latencyMs === undefined ? "worker process(es)" : `in-process worker(s), ${options.latencyMs} ms per model call`}, ${options.wakes ?? 40} wakes`,
      );
      rounds.push(await round(options, url, workers, options.wakes ?? 40));
    }
    const first = rounds[0]!;
    const last = rounds.at(-1)!;
    return { rounds, scaling: last.wakesPerSecond / first.wakesPerSecond, cpus: cpus().length };
  } finally {
    await server?.stop();
  }
}
