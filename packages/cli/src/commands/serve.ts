// `cadre serve`: the HTTP API on loopback, over the data directory's store, until SIGINT/SIGTERM.
import { fileURLToPath } from "node:url";
import { describeRecovery, recoverLostRuns } from "@cadre/company";
import { errorMessage } from "@cadre/core";
import { DEFAULT_PORT, startClusterParts, startServer } from "@cadre/server";
import { COMMON_OPTIONS, parse } from "../args.js";
import { openData, recoverInterruptedRuns, storeEnv } from "../context.js";
import { signalExitCode } from "../signals.js";
import { type CliIO, UsageError } from "../io.js";
import { untilSignal } from "../until-signal.js";
import { profileServeSetup } from "../profiles/serve.js";

export const SERVE_HELP = `Usage: cadre serve [--port N] [--data DIR] [--database URL] [--no-worker] [--no-scheduler] [--queue-schema NAME] [--retire-legacy-posts]

Serves the Cadre API on loopback (127.0.0.1) over the data directory's store: companies,
connectors, agents, approvals, wakes, runs, live events (SSE) and GET /api/openapi.json.
Prints "listening on http://127.0.0.1:PORT" and, unless CADRE_OPERATOR_TOKEN is set (then that
value is the operator token), "operator token: TOKEN", then "dashboard: URL": the operator
dashboard, served at / (a sign-in link with #token=TOKEN when the token was generated).
That token is the bootstrap owner; named operators (\`cadre operators add NAME --role …\`) sign in
with their own, each held to its role and companies on every route. Every write is recorded in the
audit log (\`cadre audit\`) under whoever made it. --otel-endpoint URL (or OTEL_EXPORTER_OTLP_ENDPOINT)
exports each run's OpenTelemetry GenAI spans.

Runs whose process is gone (a killed \`cadre demo\`, a crashed server) end as interrupted — failed,
"the process running it stopped", their tokens revoked and what they left running killed — when
it starts and every few seconds while it runs; each is said on stderr.

Stops on SIGINT or SIGTERM: wakes running in this process end cancelled (usage recorded), each
said on stderr ("run RUN_ID cancelled by SIGTERM; usage recorded"); it then exits 130 (SIGINT) or
143 (SIGTERM) if it cancelled any, else 0. On PostgreSQL, wakes its worker took from the queue get
up to 30 s to finish first, as with \`cadre worker\`.

Options:
  --port N                 port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)
  --data DIR               data directory (default ./.cadre; created with its store when missing)
  --database URL           keep the store in PostgreSQL (default CADRE_DATABASE_URL): several
                           instances and \`cadre worker\`s then share it; live events reach the SSE
                           subscribers of every instance
  --no-worker              on PostgreSQL, run no wakes from the shared queue in this process
                           (wakes asked of this API are queued either way: workers run them)
  --queue-schema NAME      on PostgreSQL, the wake queue's schema, as given to the workers (default pgboss)
  --no-scheduler           neither tick the agents' schedules nor wake agents for due work; by
                           default it looks every 10 s: assignments, operator comments, finished
                           work and approval decisions wake the agents they concern (on
                           PostgreSQL through the queue), and a schedule tick with no open work
                           is skipped before any model call. Either way \`cadre run --server\`
                           asks for a pass now (POST /api/companies/{id}/due-work)
  --retire-legacy-posts    answer 410 on the legacy POST routes; needs --evidence
  --evidence REPORT.json   the eval report that justifies retiring them: refused unless its G5 is measured
                           and passing (a scripted offline run's G5 is "not measured"); the decision and
                           the report's SHA-256 are recorded in DATA_DIR/legacy-retirement.jsonl
  -h, --help               this help

Clients: CADRE_TOKEN=TOKEN cadre company show --server http://127.0.0.1:PORT`;

/** The dashboard's build (packages/web/dist), the same number of levels up from src/ and dist/. */
const WEB_ROOT = fileURLToPath(new URL("../../../web/dist/", import.meta.url));

/** How often a running server looks for runs whose process is gone. */
const RECOVERY_SWEEP_MS = 5_000;

export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("serve", args, {
    data: COMMON_OPTIONS.data,
    help: COMMON_OPTIONS.help,
    port: { type: "string" },
    "retire-legacy-posts": { type: "boolean" },
    evidence: { type: "string" },
    database: { type: "string" },
    "no-worker": { type: "boolean" },
    "queue-schema": { type: "string" },
    "no-scheduler": { type: "boolean" },
  });
  if (values.help) return (io.out(`${SERVE_HELP}\n`), 0);
  if (values.port !== undefined && (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535))
    throw new UsageError(`serve: --port must be a whole number from 0 to 65535 (got "${values.port}")`);
  const fromEnv = io.env["CADRE_OPERATOR_TOKEN"];
  if (fromEnv !== undefined && fromEnv.length < 16)
    throw new UsageError("serve: CADRE_OPERATOR_TOKEN must be at least 16 characters");
  // The prompt profiles' options (e.g. --retire-legacy-posts), refused before anything starts.
  const profiles = await profileServeSetup(values);
  const { dataDir, store, databaseUrl } = await openData(values, io.env, "create");
  await profiles.record(dataDir, io);
  await recoverInterruptedRuns(store, io).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  // On PostgreSQL: the LISTEN/NOTIFY feed bus, the wake queue the API enqueues wakes on, and a
  // worker taking queued wakes unless --no-worker (its wakes that need an API call this server's).
  let ownUrl: string | undefined;
  const cluster = databaseUrl
    ? await startClusterParts({
        url: databaseUrl,
        worker: !values["no-worker"],
        ...(values["queue-schema"] ? { queue: { schema: values["queue-schema"] } } : {}),
        dataDir,
        env: storeEnv(io.env, databaseUrl),
        apiUrl: () => ownUrl,
        log: (line) => io.err(`${line}\n`),
      }).catch(async (error: unknown) => {
        await store.close();
        throw error;
      })
    : undefined;
  try {
    const server = await startServer({
      ...(cluster ? { bus: cluster.bus, queue: cluster.queue } : {}),
      store,
      dataDir,
      env: storeEnv(io.env, databaseUrl),
      port: values.port !== undefined ? Number(values.port) : DEFAULT_PORT,
      ...profiles.server,
      webRoot: WEB_ROOT,
      ...(values["no-scheduler"] ? {} : { dueWork: {} }),
      log: (line) => io.err(`${line}\n`),
      ...(fromEnv ? { operatorToken: fromEnv } : {}),
    });
    ownUrl = server.url;
    // Listening before the first line is printed: a signal sent as soon as it is read stops the
    // server cleanly rather than killing it.
    const stopSignal = untilSignal();
    io.out(`listening on ${server.url}\n`);
    if (!fromEnv) io.out(`operator token: ${server.operatorToken}\n`);
    // The token rides in the fragment, which browsers never send to a server; the dashboard moves it
    // to the tab's session storage and removes it from the address bar.
    io.out(
      fromEnv
        ? `dashboard: ${server.url}/ (sign in with CADRE_OPERATOR_TOKEN)\n`
        : `dashboard: ${server.url}/#token=${server.operatorToken}\n`,
    );
    // Runs of other processes on this data (a \`cadre demo\`, a \`cadre wake\`) that die while this
    // server runs are recovered within a sweep.
    let sweeping = false;
    const sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      recoverLostRuns(server.cadre.store)
        .then(async (recovery) => {
          for (const line of describeRecovery(recovery)) io.err(`cadre serve: ${line}\n`);
          // A queued wake whose worker died before its run started goes back on the queue, as a
          // worker's own recovery pass does (its job stays with the dead worker until it expires).
          for (const wake of recovery.wakes)
            if (!wake.runId && cluster)
              await cluster.queue.requeue({ wakeId: wake.id, agentId: wake.agentId });
        })
        .catch((error: unknown) => io.err(`cadre serve: recovery pass failed: ${errorMessage(error)}\n`))
        .finally(() => (sweeping = false));
    }, RECOVERY_SWEEP_MS);
    sweeper.unref();
    const signal = await stopSignal;
    clearInterval(sweeper);
    io.err(`cadre serve: ${signal}, shutting down\n`);
    const cancelled = await server.close(`cancelled by ${signal}`);
    for (const runId of cancelled) io.err(`run ${runId} cancelled by ${signal}; usage recorded\n`);
    return cancelled.length > 0 ? signalExitCode(signal as "SIGINT" | "SIGTERM") : 0;
  } finally {
    await cluster?.close();
    await store.close();
  }
}
