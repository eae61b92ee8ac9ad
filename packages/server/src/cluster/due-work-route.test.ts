// `cadre run --server` on PostgreSQL: POST /api/companies/{id}/due-work queues each due agent's wake
// for the workers and answers with the run a worker started (the CLI then follows it), or, when no
// worker started it within the wait, with the queued wake — the agent stays due.
import { createCompany, decideApproval, fileApproval, hireAgent, loadCompanyState } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { testAppOver, type TestApp } from "../testing/harness.js";
import { WakeQueue } from "./wake-queue.js";
import { WakeWorker } from "./worker.js";

afterAll(dropTestSchemas);
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A company whose strategy the operator just approved: its CEO has due work (approval_decided). */
async function approvedCompany(store: Store) {
  const company = await createCompany(store, { name: "Due Co", goal: "Robots." });
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
  await hireAgent(store, op, {
    name: "CTO",
    role: "CTO lead",
    description: "Leads.",
    connectorId: "offline",
    model: "offline-scripted-1",
  });
  const filed = await fileApproval(
    store,
    { ...op, agentId: ceo, via: "tool" },
    {
      type: "approve_ceo_strategy",
      title: "Plan",
      payload:
        "# Plan\n\n## Team and first responsibilities\n- CTO (CTO lead): builds.\n\n## First milestones\n- Ship.",
    },
  );
  await decideApproval(store, (filed as { value: { approvalId: string } }).value.approvalId, "approve", null);
  return { companyId: company.id, ceo };
}

async function setup(
  withWorker: boolean,
): Promise<{ app: TestApp; store: Store; companyId: string; ceo: string }> {
  const schema = freshSchema();
  const queueSchema = freshSchema();
  const store = await openStore({ url: testDatabaseUrl(), schema, poolSize: 4 });
  cleanup.push(() => store.close());
  const { companyId, ceo } = await approvedCompany(store);
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
  return { app, store, companyId, ceo };
}

describe("POST /api/companies/{id}/due-work with a wake queue (PostgreSQL)", () => {
  it("a worker runs the due agent's wake; the answer names the run it started", async () => {
    const { app, store, companyId, ceo } = await setup(true);
    const pass = await app.request("POST", `/api/companies/${companyId}/due-work`, { json: { seed: 3 } });
    expect(pass.status).toBe(202);
    expect(pass.body).toEqual({
      ticks: [],
      runs: [{ agentId: ceo, runId: expect.stringMatching(/^run_/) }],
      queued: [],
      problems: [],
    });
    const run = await store.getRun(pass.body.runs[0].runId);
    expect(run).toMatchObject({ agentId: ceo, trigger: "approval_decided" });
    const taken = await store.listWakeRequests({ agentId: ceo, status: "taken" });
    expect(taken.map((r) => r.runId)).toEqual([run!.id]);
  });

  it("no worker within the wait: the wake is answered queued and the agent stays due", async () => {
    const { app, store, companyId, ceo } = await setup(false);
    const pass = await app.request("POST", `/api/companies/${companyId}/due-work`, { json: {} });
    expect(pass.status).toBe(202);
    expect(pass.body).toMatchObject({ runs: [], queued: [{ agentId: ceo, wakeId: expect.any(String) }] });
    expect(await store.listRuns()).toEqual([]);
    expect((await store.listWakeRequests({ agentId: ceo, status: "pending" })).length).toBe(1);
  });
});
