// Crash recovery: a worker process SIGKILLed mid-run (after it hired, before it finished). Another
// worker fails the wake and its run within the lease timeout, with exactly one terminal event; the
// wake is not run again, even when the queue redelivers it, so nothing the run did happens twice.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createCompany } from "@cadre/company";
import { openStore } from "@cadre/store";
import { afterAll, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { WakeQueue } from "./wake-queue.js";
import { type WakeOutcome, WakeWorker } from "./worker.js";

afterAll(dropTestSchemas);

const FIXTURE = fileURLToPath(new URL("./__fixtures__/freezing-worker.mjs", import.meta.url));
const LEASE_MS = 1500;

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (l) => l === line && resolve());
    child.once("exit", (code) => reject(new Error(`worker exited (${code}) before printing "${line}"`)));
  });
}

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  context: () => string,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end)
      throw new Error(`timed out waiting until ${what}; the surviving worker said:\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("recovers the wake of a worker killed mid-run: one terminal event, no second run, no duplicated hire", async () => {
  const schema = freshSchema();
  const queueSchema = freshSchema();
  const store = await openStore({ url: testDatabaseUrl(), schema });
  const queue = await WakeQueue.open({
    url: testDatabaseUrl(),
    schema: queueSchema,
    expireInSeconds: 2,
    retryDelaySeconds: 1,
    supervise: false,
    log: () => {},
  });
  const company = await createCompany(store, { name: "Frozen Corp" });
  const ceo = (await store.listAgents(company.id))[0]!;
  let survivor: WakeWorker | undefined;
  const child = spawn(process.execPath, [FIXTURE, testDatabaseUrl(), schema, queueSchema, String(LEASE_MS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await waitForLine(child, "ready");
    const { wakeId } = await queue.enqueue({ agentId: ceo.id });
    await waitForLine(child, "frozen");
    const hiredBeforeKill = (await store.listAgents(company.id)).length - 1;
    expect(hiredBeforeKill).toBeGreaterThanOrEqual(1);
    expect(await store.getWake(wakeId)).toMatchObject({ status: "running", attempts: 1 });
    child.kill("SIGKILL");

    const outcomes: WakeOutcome[] = [];
    const said: string[] = [];
    const context = () => [...said, ...outcomes.map((o) => JSON.stringify(o))].slice(-20).join("\n");
    survivor = await WakeWorker.start({
      url: testDatabaseUrl(),
      schema,
      queue: { schema: queueSchema },
      leaseMs: LEASE_MS,
      pollMs: 100,
      log: (line) => said.push(line),
      onOutcome: (o) => outcomes.push(o),
    });
    await until(
      "the wake was recovered",
      async () => (await store.getWake(wakeId))?.status === "failed",
      context,
    );
    const wake = (await store.getWake(wakeId))!;
    // Killed on this host: its process is seen gone at once, without waiting for its lease.
    expect(wake.error).toMatch(new RegExp(`process ${child.pid} on .*, which held wake ${wakeId}, is gone`));
    const run = (await store.getRun(wake.runId!))!;
    expect(run).toMatchObject({ status: "failed", error: "the process running it stopped" });
    const events = await store.listRunEvents(run.id);
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "terminal", data: { status: "failed" } });
    expect(events.at(-2)).toMatchObject({ type: "error", data: { code: "process_lost" } });
    // Usage as far as the dead worker had persisted it (its event stream lags the model): the sum
    // of the run's stored usage events.
    const recorded = events
      .filter((e) => e.type === "usage")
      .map((e) => (e.data as { usage: { input: number; cacheWrite: number } }).usage);
    expect(run.usage.input).toBe(recorded.reduce((n, u) => n + u.input, 0));
    expect(run.usage.cacheWrite).toBe(recorded.reduce((n, u) => n + u.cacheWrite, 0));

    // The dead worker's job expires in the queue (its 2 s backstop; pg-boss checks when asked) and
    // is delivered again: the wake does not run again.
    await until(
      "the redelivery was seen",
      async () => {
        await queue.boss.expire();
        return outcomes.some((o) => o.wakeId === wakeId);
      },
      context,
    );
    expect(outcomes.filter((o) => o.wakeId === wakeId).map((o) => o.outcome)).toEqual(["duplicate"]);
    expect(await store.listRuns({ agentId: ceo.id })).toHaveLength(1);
    expect((await store.listAgents(company.id)).length - 1).toBe(hiredBeforeKill);
    expect(await store.listApprovals(company.id)).toEqual([]);
  } finally {
    child.kill("SIGKILL");
    await survivor?.stop(2000);
    await queue.stop();
    await store.close();
  }
}, 60_000);
