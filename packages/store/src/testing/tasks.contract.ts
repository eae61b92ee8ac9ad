// Tasks, wake requests and schedules: what the company layer's rules rely on — a task's
// blockers kept in order, exactly one run holding a task at a time, a wake request taken or dropped
// once, a schedule tick taken by exactly one of the processes that saw it.
import { describe, expect, it } from "vitest";
import { ConflictError, StoreError } from "../errors.js";
import type { NewSchedule, NewTask, NewWakeRequest } from "../types.js";
import { agent, run, seed, type GetStore } from "./fixtures.js";

const task = (id: string, over: Partial<NewTask> = {}): NewTask => ({
  id,
  companyId: "co1",
  title: `Task ${id}`,
  description: "Do the thing.\nThen report.",
  status: "todo",
  assigneeAgentId: "a1",
  creatorAgentId: "ceo",
  parentTaskId: null,
  strategyId: null,
  deliverable: null,
  blockers: [],
  via: "tool",
  ...over,
});

const request = (id: string, over: Partial<NewWakeRequest> = {}): NewWakeRequest => ({
  id,
  companyId: "co1",
  agentId: "a1",
  trigger: "task_assigned",
  taskId: "t1",
  causedBy: "ceo",
  cause: "task t1 was assigned to a1",
  ...over,
});

const schedule = (over: Partial<NewSchedule> = {}): NewSchedule => ({
  id: "sch1",
  companyId: "co1",
  agentId: "a1",
  everySeconds: 3600,
  cron: null,
  timezone: "UTC",
  catchUp: "one",
  nextDueAt: "2030-01-01T10:00:00.000Z",
  ...over,
});

async function seedTeam(store: GetStore): Promise<void> {
  await seed(store());
  await store().insertAgent(agent("a1", { reportsTo: "ceo" }));
  await store().insertAgent(agent("a2", { reportsTo: "ceo" }));
}

export function taskContract(store: GetStore): void {
  describe("tasks", () => {
    it("stores a task with its blockers in order and reads it back exactly", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1"));
      await store().insertTask(task("t2"));
      const written = await store().insertTask(task("t3", { blockers: ["t2", "t1"], parentTaskId: "t1" }));
      expect(written).toEqual({
        ...task("t3", { blockers: ["t2", "t1"], parentTaskId: "t1" }),
        deliverableBy: null,
        checkoutRunId: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await store().getTask("t3")).toEqual(written);
      expect((await store().listTasksBlockedBy("t1")).map((t) => t.id)).toEqual(["t3"]);
      expect((await store().listTasks("co1")).map((t) => [t.id, t.blockers])).toEqual([
        ["t1", []],
        ["t2", []],
        ["t3", ["t2", "t1"]],
      ]);
    });

    it("filters by assignee, creator and status", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1"));
      await store().insertTask(task("t2", { assigneeAgentId: "a2", status: "done" }));
      await store().insertTask(task("t3", { assigneeAgentId: null, creatorAgentId: null }));
      const ids = async (f: Parameters<ReturnType<GetStore>["listTasks"]>[1]) =>
        (await store().listTasks("co1", f)).map((t) => t.id);
      expect(await ids({ assigneeAgentId: "a1" })).toEqual(["t1"]);
      expect(await ids({ creatorAgentId: "ceo" })).toEqual(["t1", "t2"]);
      expect(await ids({ statuses: ["todo", "in_progress"] })).toEqual(["t1", "t3"]);
      expect(await ids({ statuses: [] })).toEqual([]);
    });

    it("a blocker must be a task: a dangling one is refused and nothing is written", async () => {
      await seedTeam(store);
      await expect(store().insertTask(task("t1", { blockers: ["nope"] }))).rejects.toBeInstanceOf(StoreError);
      expect(await store().listTasks("co1")).toEqual([]);
      await store().insertTask(task("t1"));
      await expect(store().insertTask(task("t1"))).rejects.toBeInstanceOf(ConflictError);
    });

    it("updates only what the patch names", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1", { blockers: [] }));
      const updated = await store().updateTask("t1", { status: "done", deliverable: "Shipped.\nNotes." });
      expect(updated).toMatchObject({ status: "done", deliverable: "Shipped.\nNotes.", title: "Task t1" });
      expect((await store().updateTask("t1", { assigneeAgentId: "a2" })).assigneeAgentId).toBe("a2");
      await expect(store().updateTask("nope", { status: "done" })).rejects.toBeInstanceOf(StoreError);
    });

    it("exactly one run holds a task at a time; releasing frees what the run held", async () => {
      await seedTeam(store);
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().insertTask(task("t1"));
      await store().insertTask(task("t2"));
      const [a, b] = await Promise.all([store().checkoutTask("t1", "r1"), store().checkoutTask("t1", "r2")]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const holder = a ? "r1" : "r2";
      expect((await store().getTask("t1"))?.checkoutRunId).toBe(holder);
      expect(await store().checkoutTask("t1", holder)).toBe(true);
      expect(await store().checkoutTask("t2", holder)).toBe(true);
      expect(await store().releaseTaskCheckouts(holder)).toEqual(["t1", "t2"]);
      expect((await store().getTask("t1"))?.checkoutRunId).toBeNull();
      expect(await store().releaseTaskCheckouts(holder)).toEqual([]);
      expect(await store().checkoutTask("t1", "r2")).toBe(true);
    });

    it("keeps comments in order with their authors", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1"));
      await store().insertTaskComment({
        id: "c1",
        taskId: "t1",
        companyId: "co1",
        authorAgentId: null,
        body: "Please add the numbers.",
        runId: null,
        via: "http",
      });
      await store().insertTaskComment({
        id: "c2",
        taskId: "t1",
        companyId: "co1",
        authorAgentId: "a1",
        body: "Added.",
        runId: null,
        via: "tool",
      });
      expect((await store().listTaskComments("t1")).map((c) => [c.id, c.authorAgentId, c.body])).toEqual([
        ["c1", null, "Please add the numbers."],
        ["c2", "a1", "Added."],
      ]);
    });
  });

  describe("wake requests", () => {
    it("a pending request is taken or dropped once; the first settlement wins", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1"));
      await store().insertRun(run("r1", { agentId: "a1" }));
      const written = await store().insertWakeRequest(request("w1"));
      expect(written).toMatchObject({ status: "pending", runId: null, note: null, trigger: "task_assigned" });
      await store().insertWakeRequest(
        request("w2", { taskId: null, trigger: "scheduled", causedBy: "system" }),
      );
      await store().insertWakeRequest(request("w3", { agentId: "a2" }));
      expect((await store().listWakeRequests({ agentId: "a1", status: "pending" })).map((r) => r.id)).toEqual(
        ["w1", "w2"],
      );
      const [x, y] = await Promise.all([
        store().settleWakeRequest("w1", { status: "taken", runId: "r1" }),
        store().settleWakeRequest("w1", { status: "dropped", note: "task finished" }),
      ]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      expect(await store().settleWakeRequest("w1", { status: "dropped", note: "again" })).toBe(false);
      expect(await store().settleWakeRequest("w2", { status: "dropped", note: "nothing to do" })).toBe(true);
      expect((await store().listWakeRequests({ status: "pending" })).map((r) => r.id)).toEqual(["w3"]);
      const w2 = (await store().listWakeRequests({ agentId: "a1" })).find((r) => r.id === "w2");
      expect(w2).toMatchObject({ status: "dropped", note: "nothing to do", runId: null });
      if (x) expect((await store().listWakeRequests({ runId: "r1" })).map((r) => r.id)).toEqual(["w1"]);
    });

    it("a request taken by a run that did not finish goes back to pending once, counted, with a note", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1"));
      await store().insertRun(run("r1", { agentId: "a1" }));
      await store().insertRun(run("r2", { agentId: "a1" }));
      await store().insertWakeRequest(request("w1"));
      expect(await store().returnWakeRequest("w1", "r1", "not taken yet")).toBe(false);
      expect(await store().settleWakeRequest("w1", { status: "taken", runId: "r1" })).toBe(true);
      // Another run never gives back what it does not hold; of two recoverers of r1, one does.
      expect(await store().returnWakeRequest("w1", "r2", "not its run")).toBe(false);
      const [x, y] = await Promise.all([
        store().returnWakeRequest("w1", "r1", "run r1 was lost"),
        store().returnWakeRequest("w1", "r1", "run r1 was lost"),
      ]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      const [w1] = await store().listWakeRequests({ agentId: "a1" });
      expect(w1).toMatchObject({ status: "pending", runId: null, note: "run r1 was lost", returns: 1 });
      // Taken again and given back again: counted twice.
      await store().settleWakeRequest("w1", { status: "taken", runId: "r2" });
      expect(await store().returnWakeRequest("w1", "r2", "run r2 was lost")).toBe(true);
      expect((await store().listWakeRequests({ agentId: "a1" }))[0]).toMatchObject({
        status: "pending",
        returns: 2,
      });
    });
  });

  describe("schedules", () => {
    it("one schedule per agent: setting it again replaces it", async () => {
      await seedTeam(store);
      const first = await store().putSchedule(schedule());
      expect(first).toEqual({
        ...schedule(),
        lastTickAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const second = await store().putSchedule(
        schedule({
          id: "sch2",
          everySeconds: null,
          cron: "0 9 * * 1-5",
          timezone: "Europe/Berlin",
          catchUp: "skip",
        }),
      );
      expect(second).toMatchObject({ id: "sch1", cron: "0 9 * * 1-5", everySeconds: null, catchUp: "skip" });
      expect(await store().listSchedules("co1")).toEqual([second]);
      expect(await store().getSchedule("a1")).toEqual(second);
      expect(await store().deleteSchedule("a1")).toBe(true);
      expect(await store().deleteSchedule("a1")).toBe(false);
      expect(await store().listSchedules()).toEqual([]);
    });

    it("a tick is taken by exactly one of the processes that saw it", async () => {
      await seedTeam(store);
      const s = await store().putSchedule(schedule());
      const next = { nextDueAt: "2030-01-01T11:00:00.000Z", lastTickAt: s.nextDueAt };
      const won = await Promise.all([1, 2, 3].map(() => store().advanceSchedule(s.id, s.nextDueAt, next)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await store().getSchedule("a1")).toMatchObject(next);
      expect(await store().advanceSchedule(s.id, s.nextDueAt, next)).toBe(false);
    });
  });

  describe("authorship and the due-work owner (migration 017)", () => {
    it("keeps who handed a deliverable in, whoever the task is assigned to after", async () => {
      await seedTeam(store);
      await store().insertTask(task("t1"));
      await store().updateTask("t1", { deliverable: "The plan.", deliverableBy: "a1" });
      const moved = await store().updateTask("t1", { assigneeAgentId: "a2" });
      expect(moved).toMatchObject({ assigneeAgentId: "a2", deliverable: "The plan.", deliverableBy: "a1" });
      expect(await store().getTask("t1")).toMatchObject({ deliverableBy: "a1" });
    });

    it("one process owns a company's due work: a claim over a live holder fails, over the holder read succeeds once", async () => {
      await seed(store());
      const p1 = { host: "h", pid: 1, started: "s1" };
      const p2 = { host: "h", pid: 2, started: "s2" };
      const lease = { since: "2030-01-01T10:00:00.000Z", until: "2030-01-01T10:00:30.000Z" };
      expect(await store().getRunOwner("co1")).toBeNull();
      expect(await store().claimRunOwner("co1", p1, lease, null)).toBe(true);
      expect(await store().claimRunOwner("co1", p2, lease, null)).toBe(false);
      const held = await store().getRunOwner("co1");
      expect(held).toEqual({ owner: p1, ...lease });
      expect(await store().renewRunOwner("co1", p2, "2030-01-01T10:01:00.000Z")).toBe(false);
      expect(await store().renewRunOwner("co1", p1, "2030-01-01T10:01:00.000Z")).toBe(true);
      // The holder as read before its renewal no longer matches: the takeover is refused.
      expect(await store().claimRunOwner("co1", p2, lease, held)).toBe(false);
      const renewed = await store().getRunOwner("co1");
      expect(await store().claimRunOwner("co1", p2, lease, renewed)).toBe(true);
      expect(await store().claimRunOwner("co1", p1, lease, renewed)).toBe(false);
      await store().releaseRunOwner("co1", p1); // not the holder: nothing changes
      expect((await store().getRunOwner("co1"))?.owner).toEqual(p2);
      await store().releaseRunOwner("co1", p2);
      expect(await store().getRunOwner("co1")).toBeNull();
    });
  });
}
