// The company at work across machines (OP-1, OP-2) on a real PostgreSQL: two workers with
// their schedulers on one store. Approving the strategy is enough: the CEO's wake, the leads' and
// the CEO's review wakes all go through the queue; each schedule tick is taken by one worker only,
// and an idle one is skipped with no run.
import {
  createCompany,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  setSchedule,
} from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { WakeWorker } from "./worker.js";

afterAll(dropTestSchemas);
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function operatingCompany(store: Store) {
  const company = await createCompany(store, { name: "Cluster Co", goal: "Robots." });
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
  const ids: string[] = [];
  for (const name of ["CTO", "CRO"]) {
    const r = await hireAgent(store, op, {
      name,
      role: `${name} lead`,
      description: "Leads.",
      connectorId: "offline",
      model: "offline-scripted-1",
    });
    ids.push((r as { value: { agentId: string } }).value.agentId);
  }
  const filed = await fileApproval(
    store,
    { ...op, agentId: ceo, via: "tool" },
    {
      type: "approve_ceo_strategy",
      title: "Plan",
      payload:
        "# Plan\n\n## Team and first responsibilities\n- CTO (CTO lead): builds.\n- CRO (CRO lead): sells.\n\n## First milestones\n- Ship a pilot.",
    },
  );
  return {
    company,
    ceo,
    leads: ids,
    approvalId: (filed as { value: { approvalId: string } }).value.approvalId,
  };
}

describe("due work on PostgreSQL, two workers", () => {
  it("an approval sets the company to work through the queue; each task one run, the CEO reviews what is handed in; every tick is taken once", async () => {
    const schema = freshSchema();
    const queueSchema = freshSchema();
    const store = await openStore({ url: testDatabaseUrl(), schema });
    cleanup.push(() => store.close());
    const { company, ceo, leads, approvalId } = await operatingCompany(store);
    const workers = [];
    for (let i = 0; i < 2; i++) {
      const worker = await WakeWorker.start({
        url: testDatabaseUrl(),
        schema,
        queue: { schema: queueSchema, retryDelaySeconds: 1 },
        pollMs: 200,
        leaseMs: 3000,
        env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
        log: () => {},
        dueWork: { intervalMs: 150 },
      });
      cleanup.push(() => worker.stop(5000));
      workers.push(worker);
    }
    // An idle schedule for each lead, due now: each tick is skipped, once, by one of the two.
    for (const lead of leads) await setSchedule(store, { agentId: lead, every: "1h", start: "now" });
    await until(
      "both schedules ticked",
      async () => (await store.listActivity(company.id, { type: "schedule.skipped" })).length >= 2,
    );

    await decideApproval(store, approvalId, "approve", null);
    // Settled: every task accepted, no run running, nothing due.
    await until("the work is accepted and nothing is due", async () => {
      const tasks = await store.listTasks(company.id);
      const runs = await store.listRuns({ companyId: company.id });
      return (
        tasks.length === leads.length &&
        tasks.every((t) => t.status === "done") &&
        runs.every((r) => r.status !== "running") &&
        (await store.listWakeRequests({ status: "pending" })).length === 0
      );
    });
    const tasks = await store.listTasks(company.id);
    expect(tasks.map((t) => t.assigneeAgentId).sort()).toEqual([...leads].sort());
    expect(tasks.every((t) => t.status === "done" && t.deliverable && t.checkoutRunId === null)).toBe(true);
    const runs = await store.listRuns({ companyId: company.id });
    expect(runs.every((r) => r.status === "done")).toBe(true);
    // The CEO: the approval's wake, then one review wake per hand-in, or fewer when hand-ins that
    // arrive together are reviewed in one wake (which depends on which worker finishes first).
    const ceoRuns = runs.filter((r) => r.agentId === ceo).length;
    expect(ceoRuns).toBeGreaterThanOrEqual(2);
    expect(ceoRuns).toBeLessThanOrEqual(1 + tasks.length);
    expect(runs.length).toBe(tasks.length + ceoRuns);
    for (const lead of leads)
      expect(runs.filter((r) => r.agentId === lead).map((r) => r.trigger)).toEqual(["task_assigned"]);
    expect(
      (await store.listActivity(company.id, { type: "schedule.skipped" }))
        .map((a) => (a.data as { agentId: string }).agentId)
        .sort(),
    ).toEqual([...leads].sort());
  }, 120_000); // two workers, a queue and a dozen runs: 10 s alone, over 30 s in a loaded full suite
});
