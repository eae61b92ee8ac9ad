// OP-2 (idle schedules cost nothing; missed ticks collapse; one tick per schedule) and the end of a
// lost run (its tasks released, each unfinished one resumed exactly once).
import { spawnSync } from "node:child_process";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { createCompany } from "../companies.js";
import { thisProcess } from "../recovery/processes.js";
import { recoverLostRuns } from "../recovery/recover.js";
import { loadCompanyState } from "../state.js";
import { fileApproval } from "../approvals/file.js";
import { hireAgent } from "../team/hire.js";
import { wakeIfDue } from "../wake.js";
import { runDue } from "./dispatch.js";
import { setSchedule } from "./schedule-admin.js";
import { parseDuration, tickSchedules } from "./schedules.js";
import { createTask, updateTask } from "./tasks.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function operating() {
  const company = await createCompany(store, { name: "Acme", goal: "Robots." });
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
  const hired = await hireAgent(store, op, {
    name: "CTO",
    role: "CTO",
    description: "x",
    connectorId: "offline",
    model: "offline-scripted-1",
  });
  const cto = (hired as { value: { agentId: string } }).value.agentId;
  const filed = await fileApproval(
    store,
    { ...op, agentId: ceo, via: "tool" },
    { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan" },
  );
  await decideApproval(store, (filed as { value: { approvalId: string } }).value.approvalId, "approve", null);
  for (const r of await store.listWakeRequests({ status: "pending" }))
    await store.settleWakeRequest(r.id, { status: "dropped", note: "test" });
  return { company, ceo, cto, asCeo: { ...op, agentId: ceo, via: "tool" as const } };
}

const T0 = new Date("2030-01-07T09:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe("OP-2: schedules", () => {
  it("an idle schedule is skipped in code: recorded, no run, no model call; missed ticks collapse into one", async () => {
    const { company, ceo, cto } = await operating();
    await setSchedule(store, { agentId: cto, every: "1h", start: T0.toISOString() });
    await setSchedule(store, { agentId: ceo, cron: "0 9 * * 1-5", start: T0.toISOString() });
    const calls: number[] = [];
    const report = await runDue({
      store,
      untilIdle: true,
      maxWakes: 10,
      now: () => at(5 * 60 + 30), // five and a half hours later: six interval ticks, one cron tick
      wake: (agentId) =>
        wakeIfDue({
          store,
          agentId,
          script: () => (calls.push(1), { content: [{ type: "text", text: "x" }] }),
        }),
    });
    expect(report.wakes).toEqual([]);
    expect(calls).toEqual([]);
    expect(report.ticks.map((t) => [t.agentId, t.outcome, t.ticks, t.reason])).toEqual(
      expect.arrayContaining([
        [cto, "skipped", 6, "no open work"],
        [ceo, "skipped", 1, "no open work"],
      ]),
    );
    expect(await store.listRuns({ companyId: company.id })).toEqual([]);
    const skipped = await store.listActivity(company.id, { type: "schedule.skipped" });
    expect(skipped).toHaveLength(2); // one record per schedule, not per missed tick
    expect((await store.getSchedule(cto))!.nextDueAt).toBe(at(6 * 60).toISOString());
    expect((await store.getSchedule(ceo))!.nextDueAt).toBe("2030-01-08T09:00:00.000Z");
    // Nothing is due until the next tick.
    expect(await tickSchedules(store, at(5 * 60 + 31))).toEqual([]);
  });

  it("a schedule with open work wakes its agent once (trigger scheduled); catch-up skip drops late ticks", async () => {
    const { cto, asCeo } = await operating();
    await createTask(store, asCeo, { title: "Keep going", assignee: "CTO" });
    for (const r of await store.listWakeRequests({ status: "pending" }))
      await store.settleWakeRequest(r.id, { status: "dropped", note: "test" });
    await setSchedule(store, { agentId: cto, every: "1h", catchUp: "skip", start: T0.toISOString() });
    const late = await tickSchedules(store, at(90));
    expect(late.map((t) => [t.outcome, t.ticks, t.reason])).toEqual([
      ["skipped", 2, "missed ticks are dropped (catch-up skip)"],
    ]);
    const onTime = await tickSchedules(store, at(120));
    expect(onTime.map((t) => t.outcome)).toEqual(["woken"]);
    const report = await runDue({
      store,
      maxWakes: 10,
      now: () => at(120),
      wake: (agentId) => wakeIfDue({ store, agentId }),
    });
    expect(report.wakes.map((w) => [w.agentId, w.result.run.trigger])).toEqual([[cto, "scheduled"]]);
  });

  it("of several processes ticking at once, one takes each tick", async () => {
    const { company, cto } = await operating();
    await setSchedule(store, { agentId: cto, every: "15m", start: T0.toISOString() });
    const all = await Promise.all([1, 2, 3, 4].map(() => tickSchedules(store, at(1))));
    expect(all.flat()).toHaveLength(1);
    expect(await store.listActivity(company.id, { type: "schedule.skipped" })).toHaveLength(1);
  });

  it("bad schedules are refused with what is allowed, and nothing is written", async () => {
    const { company, cto } = await operating();
    expect(() => parseDuration("10s")).toThrow(/shortest interval, 1m/);
    expect(() => parseDuration("soon")).toThrow(/15m, 1h, 1h30m, 1d/);
    expect(parseDuration("1h30m")).toBe(5400);
    await expect(setSchedule(store, { agentId: cto, cron: "* * * * * *" })).rejects.toThrow(
      /5-field cron expression/,
    );
    await expect(setSchedule(store, { agentId: cto, cron: "61 * * * *" })).rejects.toThrow(/minute/);
    await expect(
      setSchedule(store, { agentId: cto, cron: "0 9 * * *", timezone: "Mars/Base" }),
    ).rejects.toThrow(/IANA/);
    await expect(setSchedule(store, { agentId: cto })).rejects.toThrow(/exactly one of --every/);
    await expect(setSchedule(store, { agentId: cto, every: "1h", catchUp: "all" })).rejects.toThrow(
      /skip, one/,
    );
    // Only the documented 5-field syntax: croner's nicknames and extensions are refused, named.
    await expect(setSchedule(store, { agentId: cto, cron: "@daily" })).rejects.toThrow(
      /not 5 \(nicknames such as @daily are not supported/,
    );
    for (const cron of ["0 0 L * *", "0 0 * * 5#2", "0 0 ? * *", "0 0 15W * *"])
      await expect(setSchedule(store, { agentId: cto, cron })).rejects.toThrow(
        /L, W, # and \? are not supported/,
      );
    // A first tick in year 1 is refused, not caught up tick by tick on every due-work pass.
    for (const cron of [undefined, "0 * * * *"])
      await expect(
        setSchedule(
          store,
          { agentId: cto, ...(cron ? { cron } : { every: "1h" }), start: "0001-01-01T00:00:00Z" },
          T0,
        ),
      ).rejects.toThrow(/--start may be at most a year before now/);
    expect(await store.listSchedules(company.id)).toEqual([]);
    // What the docs show is taken: ranges, lists, steps, names.
    await setSchedule(store, { agentId: cto, cron: "*/15 9-17 1,15 JAN-JUN MON-FRI" }, T0);
    expect(await store.listSchedules(company.id)).toHaveLength(1);
  });
});

describe("a lost run's tasks", () => {
  it("recovery releases the task the lost run held, gives back the reason it took and leaves one task_resumed request; the next wake continues it once", async () => {
    const { company, ceo, cto, asCeo } = await operating();
    const created = await createTask(store, asCeo, { title: "Build it", assignee: "CTO" });
    const taskId = (created as { value: { taskId: string } }).value.taskId;
    // A run of the CTO held by a process that has died, which had started the task.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    const owner = { host: thisProcess().host, pid: Number(dead.stdout), started: "long ago" };
    await store.claimWake({
      id: "wake-x",
      companyId: company.id,
      agentId: cto,
      workerId: "w",
      leaseUntil: new Date(Date.now() + 60_000).toISOString(),
      owner,
    });
    await store.insertRun({
      id: "run-lost",
      companyId: company.id,
      agentId: cto,
      trigger: "task_assigned",
      mode: "operating",
      profile: "semantic",
      cue: "c",
    });
    await store.setWakeRun("wake-x", "w", "run-lost");
    for (const r of await store.listWakeRequests({ agentId: cto, status: "pending" }))
      await store.settleWakeRequest(r.id, { status: "taken", runId: "run-lost" });
    await updateTask(store, { ...asCeo, agentId: cto, runId: "run-lost" }, { taskId, status: "in_progress" });
    expect((await store.getTask(taskId))!.checkoutRunId).toBe("run-lost");

    const recoveries = await Promise.all([recoverLostRuns(store), recoverLostRuns(store)]);
    expect(recoveries.flatMap((r) => r.runs).map((r) => r.runId)).toEqual(["run-lost"]);
    expect((await store.getRun("run-lost"))!.status).toBe("failed");
    expect((await store.getTask(taskId))!.checkoutRunId).toBeNull();
    // The assignment it took is due again (given back once, by the one recoverer that won), and
    // the task it had started is to be resumed: one wake takes both, named after the resume.
    const resume = await store.listWakeRequests({ agentId: cto, status: "pending" });
    expect(resume.map((r) => [r.trigger, r.taskId, r.causedBy, r.returns])).toEqual([
      ["task_assigned", taskId, ceo, 1],
      ["task_resumed", taskId, "system", 0],
    ]);
    await recoverLostRuns(store);
    expect(await store.listWakeRequests({ agentId: cto, status: "pending" })).toHaveLength(2);

    const report = await runDue({ store, maxWakes: 10, wake: (agentId) => wakeIfDue({ store, agentId }) });
    expect(report.wakes.map((w) => [w.agentId, w.result.run.trigger, w.result.requests.length])).toEqual([
      [cto, "task_resumed", 2],
    ]);
    // Continued once and handed in: it waits for its creator's review (done means accepted).
    expect((await store.getTask(taskId))!.status).toBe("in_review");
  });
});
