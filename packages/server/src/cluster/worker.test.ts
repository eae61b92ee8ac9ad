// Wake workers against a real PostgreSQL: delivery, coalescing, busy agents, retries of retryable
// failures only, and the lease that fences a cut-off worker out. A fresh store schema and queue
// schema per test.
import { createCompany, offlineCeoScript } from "@cadre/company";
import type { Script } from "@cadre/core/offline";
import { sampleDomainEvent } from "@cadre/model/testing";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { LeaseLostError, WakeLease } from "./lease.js";
import { WakeQueue } from "./wake-queue.js";
import { type WakeOutcome, WakeWorker, type WorkerOptions } from "./worker.js";

afterAll(dropTestSchemas);

interface Setup {
  schema: string;
  queueSchema: string;
  store: Store;
  queue: WakeQueue;
  ceos: string[];
}

const NAMES = ["Alpha Works", "Bravo Labs", "Charlie Foods", "Delta Air", "Echo Media"];
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(companies: number): Promise<Setup> {
  const schema = freshSchema();
  const queueSchema = freshSchema();
  const store = await openStore({ url: testDatabaseUrl(), schema });
  cleanup.push(() => store.close());
  const ceos: string[] = [];
  for (let i = 0; i < companies; i++) {
    const company = await createCompany(store, { name: NAMES[i] ?? `Company ${i}` });
    ceos.push((await store.listAgents(company.id)).find((a) => a.isCeo)!.id);
  }
  const queue = await WakeQueue.open({
    url: testDatabaseUrl(),
    schema: queueSchema,
    retryDelaySeconds: 1,
    supervise: false,
    log: () => {},
  });
  cleanup.push(() => queue.stop());
  return { schema, queueSchema, store, queue, ceos };
}

async function startWorker(s: Setup, over: Partial<WorkerOptions> = {}) {
  const outcomes: WakeOutcome[] = [];
  const worker = await WakeWorker.start({
    url: testDatabaseUrl(),
    schema: s.schema,
    queue: { schema: s.queueSchema, retryDelaySeconds: 1 },
    pollMs: 200,
    leaseMs: 3000,
    env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
    log: () => {},
    onOutcome: (o) => outcomes.push(o),
    ...over,
  });
  cleanup.push(() => worker.stop(5000));
  return { worker, outcomes };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every run of the store ended with exactly one terminal event, as its last event. */
async function expectOneTerminalPerRun(store: Store): Promise<void> {
  for (const run of await store.listRuns()) {
    const events = await store.listRunEvents(run.id);
    expect(
      events.filter((e) => e.type === "terminal"),
      `run ${run.id}`,
    ).toHaveLength(1);
    expect(events.at(-1)?.type).toBe("terminal");
    expect(run.status).not.toBe("running");
  }
}

describe("wake workers", () => {
  it("run each queued wake once, and coalesce the wakes sent for an agent that already has one waiting", async () => {
    const s = await setup(3);
    const sent = [];
    for (let round = 0; round < 4; round++)
      for (const ceo of s.ceos) sent.push(await s.queue.enqueue({ agentId: ceo }));
    const queued = sent.filter((e) => e.queued);
    expect(queued).toHaveLength(3);
    expect(sent.filter((e) => !e.queued)).toHaveLength(9);

    const { outcomes } = await startWorker(s, { concurrency: 2 });
    await until("every queued wake ended", () => outcomes.filter((o) => o.outcome === "done").length === 3);
    for (const { wakeId } of queued) {
      const wake = await s.store.getWake(wakeId);
      expect(wake).toMatchObject({ status: "done", attempts: 1, workerId: null });
      expect((await s.store.getRun(wake!.runId!))?.status).toBe("done");
    }
    expect(await s.store.listRuns()).toHaveLength(3);
    await expectOneTerminalPerRun(s.store);
    // The CEOs did their work: a team and a strategy each (MC-10: exactly once).
    for (const ceo of s.ceos) {
      const agent = (await s.store.getAgent(ceo))!;
      expect((await s.store.listAgents(agent.companyId)).length).toBeGreaterThanOrEqual(4);
      expect(await s.store.listApprovals(agent.companyId)).toHaveLength(1);
    }
  });

  it("defer a wake while its agent runs another, then run it", async () => {
    const s = await setup(1);
    const agent = (await s.store.getAgent(s.ceos[0]!))!;
    // Another worker (still alive) holds a wake of this agent.
    await s.store.claimWake({
      id: "elsewhere",
      companyId: agent.companyId,
      agentId: agent.id,
      workerId: "other",
      leaseUntil: new Date(Date.now() + 60_000).toISOString(),
    });
    const { wakeId } = await s.queue.enqueue({ agentId: agent.id });
    const { outcomes } = await startWorker(s, { deferSeconds: 1 });
    await until("the wake was deferred", () => outcomes.some((o) => o.outcome === "deferred"));
    expect(await s.store.getWake(wakeId)).toBeUndefined();
    await s.store.releaseWake("elsewhere", "other", { status: "done", error: null });
    await until("the wake ran", () => outcomes.some((o) => o.wakeId === wakeId && o.outcome === "done"));
    expect(await s.store.getWake(wakeId)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("retry a run that failed on a transient provider error before any tool call, and nothing else", async () => {
    const s = await setup(3);
    const [transient, permanent, afterTool] = s.ceos as [string, string, string];
    const failures = new Map<string, number>([
      [transient, 2],
      [permanent, 1],
    ]);
    // The failing script stands in for a provider: which company a session serves is in its prompt.
    const script: Script = (request) => {
      const prompt = request.context.systemPrompt ?? "";
      const agentId = s.ceos.find((_, i) => prompt.includes(NAMES[i]!)) ?? "";
      const left = failures.get(agentId) ?? 0;
      if (agentId === transient && left > 0 && request.callIndex === 0)
        return (failures.set(agentId, left - 1), { error: "529 overloaded_error: Overloaded" });
      if (agentId === permanent && request.callIndex === 0)
        return { error: "401 authentication_error: invalid x-api-key" };
      if (agentId === afterTool && request.callIndex === 1)
        return { error: "529 overloaded_error: Overloaded" };
      return offlineCeoScript(request);
    };
    const wakes = await Promise.all(s.ceos.map((agentId) => s.queue.enqueue({ agentId })));
    const { outcomes } = await startWorker(s, { concurrency: 3, wakeDefaults: { script } });
    await until(
      "all three ended",
      () => outcomes.filter((o) => o.outcome === "done" || o.outcome === "failed").length === 3,
      30_000,
    );

    const [t, p, a] = await Promise.all(wakes.map((w) => s.store.getWake(w.wakeId)));
    expect(t).toMatchObject({ status: "done", attempts: 3 });
    expect(outcomes.filter((o) => o.wakeId === wakes[0]!.wakeId).map((o) => o.outcome)).toEqual([
      "retrying",
      "retrying",
      "done",
    ]);
    expect(p).toMatchObject({ status: "failed", attempts: 1 });
    expect(p!.error).toMatch(/401/);
    expect(a).toMatchObject({ status: "failed", attempts: 1 });
    expect((await s.store.listRuns({ agentId: transient })).map((r) => r.status)).toEqual([
      "failed",
      "failed",
      "done",
    ]);
    await expectOneTerminalPerRun(s.store);
  }, 45_000);

  it("run again a wake whose worker died before its run started", async () => {
    const s = await setup(1);
    const agent = (await s.store.getAgent(s.ceos[0]!))!;
    await s.store.claimWake({
      id: "orphan",
      companyId: agent.companyId,
      agentId: agent.id,
      workerId: "dead",
      leaseUntil: new Date(Date.now() - 1000).toISOString(),
    });
    const { outcomes } = await startWorker(s);
    await until("the orphan ran", () => outcomes.some((o) => o.wakeId === "orphan" && o.outcome === "done"));
    expect(await s.store.getWake("orphan")).toMatchObject({ status: "done", attempts: 1, workerId: null });
    expect(await s.store.listRuns()).toHaveLength(1);
  });

  it("run again a wake whose worker died before its run started, also while another wake of its agent waits", async () => {
    const s = await setup(1);
    const agent = (await s.store.getAgent(s.ceos[0]!))!;
    await s.store.claimWake({
      id: "orphan",
      companyId: agent.companyId,
      agentId: agent.id,
      workerId: "dead",
      leaseUntil: new Date(Date.now() - 1000).toISOString(),
    });
    // A wake of the same agent is waiting: the orphan must not be joined to it (it would stay retrying).
    const { wakeId: waiting } = await s.queue.enqueue({ agentId: agent.id });
    const { outcomes } = await startWorker(s);
    await until("both wakes ran", () =>
      ["orphan", waiting].every((id) => outcomes.some((o) => o.wakeId === id && o.outcome === "done")),
    );
    expect(await s.store.getWake("orphan")).toMatchObject({ status: "done", attempts: 1 });
    expect(await s.store.getWake(waiting)).toMatchObject({ status: "done" });
    expect(await s.store.listRuns()).toHaveLength(2);
  });

  it("fence a worker out once its lease is lost: nothing it writes afterwards lands", async () => {
    const s = await setup(1);
    const agent = (await s.store.getAgent(s.ceos[0]!))!;
    const lease = new WakeLease(s.store, "wk", "w1", 1000);
    expect(
      (
        await s.store.claimWake({
          id: "wk",
          companyId: agent.companyId,
          agentId: agent.id,
          workerId: "w1",
          leaseUntil: lease.leaseUntil(),
        })
      ).outcome,
    ).toBe("claimed");
    const view = lease.view();
    await view.insertRun({
      id: "r1",
      companyId: agent.companyId,
      agentId: agent.id,
      trigger: "routine",
      mode: "team-building",
      profile: "semantic",
      cue: "go",
    });
    expect(lease.runId).toBe("r1");
    expect(await s.store.getWake("wk")).toMatchObject({ runId: "r1", attempts: 1 });
    await view.appendRunEvents([{ runId: "r1", companyId: agent.companyId, seq: 0, type: "text", data: {} }]);

    // Recovery takes the wake (its lease is seen as run out from a minute ahead).
    expect(await s.store.expireWake("wk", new Date(Date.now() + 60_000).toISOString(), "lost")).toBe(true);
    const before = await s.store.counts();
    await expect(
      view.appendRunEvents([{ runId: "r1", companyId: agent.companyId, seq: 1, type: "text", data: {} }]),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await expect(
      view.transaction((tx) =>
        tx.insertActivity({
          companyId: agent.companyId,
          agentId: null,
          runId: "r1",
          ...sampleDomainEvent("run.stopped"),
        }),
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await expect(
      view.finishRun("r1", {
        status: "done",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        error: null,
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(lease.lost).toBe(true);
    expect(lease.signal.aborted).toBe(true);
    expect(await s.store.counts()).toEqual(before);
    // Reads still go through.
    expect((await view.getRun("r1"))?.status).toBe("running");
  });
});
