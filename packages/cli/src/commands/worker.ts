// `cadre worker --database URL [--concurrency N]`: takes wakes from the shared queue in PostgreSQL
// and runs them until SIGINT/SIGTERM. The worker itself lives in @cadre/server (cluster/).
import { resolve } from "node:path";
import { redactUrl, isPostgresUrl, StoreError } from "@cadre/store";
import { WakeWorker } from "@cadre/server";
import { parse } from "../args.js";
import { DEFAULT_DATA_DIR, storeEnv } from "../context.js";
import { type CliIO, UsageError } from "../io.js";
import { untilSignal } from "../until-signal.js";

export const WORKER_HELP = `Usage: cadre worker [--database URL] [--concurrency N] [--lease-seconds N] [--data DIR] [--api-url URL] [--no-scheduler]

Takes wakes from the shared queue in PostgreSQL and runs them, on as many machines as you like,
until SIGINT or SIGTERM (it then stops taking wakes and lets running ones finish, up to 30 s).
A wake whose worker dies is recovered by another worker once its lease runs out (at once by any
process on the dead worker's own host): its run ends failed (one terminal event) and is not run
again.

  --database URL      postgres://… (default: CADRE_DATABASE_URL)
  --concurrency N     wakes run at once by this worker (default 1)
  --lease-seconds N   how long a silent worker keeps its wakes (default 30; heartbeat every third)
  --data DIR          where agents' working folders live (default ./.cadre)
  --queue-schema NAME pg-boss's schema (default pgboss)
  --no-scheduler      neither tick the agents' schedules nor queue wakes for due work (assignments,
                      comments, finished work): by default every worker and \`cadre serve\` look
                      every 10 s, and each schedule tick is taken by one process across machines
  --api-url URL       a Cadre API (\`cadre serve\`) on the same database, for wakes on the legacy
                      prompt profile: their CEO hires by HTTP against it (default: CADRE_API_URL;
                      without either such wakes fail with a message saying so)`;

const OPTIONS = {
  database: { type: "string" },
  concurrency: { type: "string" },
  "lease-seconds": { type: "string" },
  data: { type: "string" },
  "queue-schema": { type: "string" },
  "api-url": { type: "string" },
  "no-scheduler": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function positiveInt(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new UsageError(`worker: --${name} must be a whole number from 1 to ${max}`);
  return Number(value);
}

function httpUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
    throw new UsageError(
      `worker: --api-url must be an http(s) URL of a running \`cadre serve\`, e.g. http://127.0.0.1:7420 (got "${value}")`,
    );
  return value.replace(/\/+$/, "");
}

/** A PostgreSQL server that cannot be reached is the --database given: bad input, one line (exit 2). */
async function startWorker(options: Parameters<typeof WakeWorker.start>[0]): Promise<WakeWorker> {
  try {
    return await WakeWorker.start(options);
  } catch (error) {
    if (error instanceof StoreError && /^cannot open/.test(error.message))
      throw new UsageError(error.message);
    throw error;
  }
}

export async function workerCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("worker", args, OPTIONS);
  if (values.help) return (io.out(`${WORKER_HELP}\n`), 0);
  const url = values.database ?? io.env["CADRE_DATABASE_URL"];
  if (!url || !isPostgresUrl(url))
    throw new UsageError(
      "worker: --database postgres://… (or CADRE_DATABASE_URL) is required; workers share a PostgreSQL store",
    );
  const concurrency = positiveInt("concurrency", values.concurrency, 1, 256);
  const leaseSeconds = positiveInt("lease-seconds", values["lease-seconds"], 30, 3600);
  const apiUrl = httpUrl(values["api-url"] ?? io.env["CADRE_API_URL"]);
  // The harness loads once, before the first wake is taken, instead of inside the first wake.
  await (await import("@cadre/core/sessions")).preloadPiHarness();
  const worker = await startWorker({
    url,
    concurrency,
    leaseMs: leaseSeconds * 1000,
    dataDir: resolve(values.data ?? DEFAULT_DATA_DIR),
    // The URL goes on to the processes a wake starts (Codex's \`cadre mcp\`), whichever way it was given.
    env: storeEnv(io.env, url),
    ...(apiUrl ? { apiUrl: () => apiUrl } : {}),
    ...(values["queue-schema"] ? { queue: { schema: values["queue-schema"] } } : {}),
    log: (line) => io.err(`${line}\n`),
    ...(values["no-scheduler"] ? {} : { dueWork: {} }),
    onOutcome: (o) =>
      io.err(
        `wake ${o.wakeId} (agent ${o.agentId}): ${o.outcome}${o.runId ? ` run ${o.runId}` : ""}${o.error ? ` — ${o.error}` : ""}\n`,
      ),
  });
  io.err(
    `worker ${worker.workerId} ready: taking wakes from ${redactUrl(url)} (concurrency ${concurrency}, lease ${leaseSeconds} s)\n`,
  );
  const signal = await untilSignal();
  io.err(`worker ${worker.workerId}: ${signal}, finishing running wakes\n`);
  await worker.stop();
  io.err(`worker ${worker.workerId} stopped\n`);
  return 0;
}
