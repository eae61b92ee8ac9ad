// The wake route on PostgreSQL with the cluster parts: the wake is queued and a worker runs it; the
// route answers as the in-process one does once the worker has started the run, says so when no
// worker started it in time, and passes a refusal made before the run on to the caller.
import { createCompany } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { HIRE, testAppOver, type TestApp } from "../testing/harness.js";
import { WakeQueue } from "./wake-queue.js";
import { WakeWorker } from "./worker.js";

afterAll(dropTestSchemas);

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(
  withWorker: boolean,
): Promise<{ app: TestApp; store: Store; companyId: string; ceoId: string }> {
  const schema = freshSchema();
  const queueSchema = freshSchema();
  const store = await openStore({ url: testDatabaseUrl(), schema, poolSize: 4 });
  const company = await createCompany(store, { name: "Queued Co", goal: "Sell software" });
  const ceoId = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
  const queue = await WakeQueue.open({
    url: testDatabaseUrl(),
    schema: queueSchema,
    supervise: false,
    log: () => {},
  });
  cleanup.push(() => queue.stop());
  if (withWorker) {
    const worker = await WakeWorker.start({
      url: testDatabaseUrl(),
      schema,
      queue: { schema: queueSchema },
      pollMs: 200,
      env: {},
      log: () => {},
    });
    cleanup.push(() => worker.stop(5000));
  }
  const app = testAppOver(store, { queue, queueStartWaitMs: withWorker ? 20_000 : 400 });
  cleanup.push(() => app.close());
  return { app, store, companyId: company.id, ceoId };
}

async function untilRunEnds(store: Store, runId: string) {
  for (let i = 0; i < 400; i++) {
    const run = await store.getRun(runId);
    if (run && run.status !== "running") return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} did not end`);
}

describe("the wake route with a wake queue (PostgreSQL)", () => {
  it("queues the wake, a worker runs it, and the answer carries the started run as in-process, plus the wake", async () => {
    const { app, store, ceoId } = await setup(true);
    const woken = await app.request("POST", `/api/agents/${ceoId}/wake`, {
      json: { trigger: "start_team_building", seed: 7 },
    });
    expect(woken.status).toBe(202);
    expect(woken.body).toEqual({
      runId: expect.stringMatching(/^run_/),
      profile: "semantic",
      trigger: "start_team_building",
      mode: "team-building",
      cue: expect.any(String),
      cueTokens: expect.any(Number),
      via: "queue",
      wakeId: expect.stringMatching(/^wake_/),
      coalesced: false,
      status: "started",
    });
    expect(woken.body.cueTokens).toBeGreaterThan(0);
    const wake = await store.getWake(woken.body.wakeId);
    expect(wake).toMatchObject({ agentId: ceoId, runId: woken.body.runId });
    expect(wake?.workerId).not.toBeNull();
    expect(await untilRunEnds(store, woken.body.runId)).toMatchObject({ status: "done" });
    expect(app.cadre.wakes.active).toBe(0);
  });

  it("answers 'queued' when no worker started the run in time, and joins a wake still waiting", async () => {
    const { app, store, ceoId } = await setup(false);
    const first = await app.request("POST", `/api/agents/${ceoId}/wake`, { json: { seed: 1 } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      runId: null,
      profile: null,
      trigger: null,
      mode: null,
      cue: null,
      cueTokens: null,
      via: "queue",
      coalesced: false,
      status: "queued",
    });
    const second = await app.request("POST", `/api/agents/${ceoId}/wake`, { json: { seed: 2 } });
    expect(second.body).toMatchObject({ wakeId: first.body.wakeId, coalesced: true, status: "queued" });
    expect(await store.listRuns()).toEqual([]);
  });

  it("passes a refusal made before the run started on to the caller, with no run written", async () => {
    const { app, store, companyId } = await setup(true);
    const cto = (await app.request("POST", `/api/companies/${companyId}/agents`, { json: HIRE })).body;
    const member = await app.request("POST", `/api/agents/${cto.id}/wake`);
    expect(member.status).toBe(400);
    expect(member.body.error.message).toMatch(/refused before its run started: .*strategy is not approved/);
    expect(await store.listRuns()).toEqual([]);
  });
});
