// Runs, their events (the global event log) and the activity feed.
import { SAMPLE_DOMAIN_EVENTS } from "@cadre/model/testing";
import { describe, expect, it } from "vitest";
import { ConflictError, StoreError } from "../errors.js";
import { activity, agent, run, runEvent, seed, setClock, type GetStore } from "./fixtures.js";

export function runContract(store: GetStore): void {
  describe("runs", () => {
    it("starts running with zero usage", async () => {
      await seed(store());
      setClock("2025-05-06T07:08:09.012Z");
      const input = run("r1", { profile: "legacy", trigger: "approval_decided", mode: "revising" });
      const expected = {
        ...input,
        status: "running",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        error: null,
        startedAt: "2025-05-06T07:08:09.012Z",
        endedAt: null,
        stopReason: null,
      };
      expect(await store().insertRun(input)).toEqual(expected);
      expect(await store().getRun("r1")).toEqual(expected);
      expect(await store().getRun("missing")).toBeUndefined();
      await expect(store().insertRun(input)).rejects.toBeInstanceOf(ConflictError);
    });

    it("finishes with status, usage and error", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      setClock("2025-05-06T08:00:00.000Z");
      const usage = { input: 1200, output: 340, cacheRead: 1000, cacheWrite: 56 };
      await store().finishRun("r1", { status: "failed", usage, error: "provider said no" });
      await store().finishRun("r2", { status: "done", usage, error: null });
      expect(await store().getRun("r1")).toMatchObject({
        status: "failed",
        usage,
        error: "provider said no",
        endedAt: "2025-05-06T08:00:00.000Z",
      });
      expect(await store().getRun("r2")).toMatchObject({ status: "done", error: null });
      await expect(
        store().finishRun("missing", { status: "cancelled", usage, error: null }),
      ).rejects.toBeInstanceOf(StoreError);
    });

    it("records a running run's usage as its model calls complete, and never a finished run's", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      const usage = { input: 10, output: 5, cacheRead: 100, cacheWrite: 7 };
      expect(await store().setRunUsage("r1", usage)).toBe(true);
      expect(await store().getRun("r1")).toMatchObject({ status: "running", usage });
      await store().finishRun("r1", { status: "done", usage, error: null });
      expect(await store().setRunUsage("r1", { ...usage, input: 99 })).toBe(false);
      expect((await store().getRun("r1"))?.usage).toEqual(usage);
      expect(await store().setRunUsage("missing", usage)).toBe(false);
      // Calls booked after the run's end (a lost run reconciled) add to an ended run only.
      expect(await store().addEndedRunUsage("r1", usage)).toBe(true);
      expect((await store().getRun("r1"))?.usage).toEqual({
        input: 20,
        output: 10,
        cacheRead: 200,
        cacheWrite: 14,
      });
      await store().insertRun(run("r2"));
      expect(await store().addEndedRunUsage("r2", usage)).toBe(false);
      expect((await store().getRun("r2"))?.usage).toEqual({
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
      });
      expect(await store().addEndedRunUsage("missing", usage)).toBe(false);
    });

    it("lists the runs in one status", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().finishRun("r2", {
        status: "failed",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        error: "x",
      });
      expect((await store().listRuns({ status: "running" })).map((r) => r.id)).toEqual(["r1"]);
      expect((await store().listRuns({ status: "failed" })).map((r) => r.id)).toEqual(["r2"]);
    });

    it("records the process groups a run started, until each ends", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      setClock("2025-05-06T07:08:09.012Z");
      const row = await store().insertRunProcess({ runId: "r1", pid: 300, host: "box", started: "s1" });
      expect(row).toEqual({
        runId: "r1",
        pid: 300,
        host: "box",
        started: "s1",
        createdAt: "2025-05-06T07:08:09.012Z",
      });
      await store().insertRunProcess({ runId: "r1", pid: 200, host: "box", started: "s2" });
      await store().insertRunProcess({ runId: "r2", pid: 300, host: "box", started: "s3" });
      await expect(
        store().insertRunProcess({ runId: "r1", pid: 300, host: "box", started: "again" }),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(
        store().insertRunProcess({ runId: "missing", pid: 1, host: "box", started: "s" }),
      ).rejects.toBeInstanceOf(StoreError);
      expect((await store().listRunProcesses("r1")).map((p) => p.pid)).toEqual([200, 300]);
      expect(await store().deleteRunProcess("r1", 300)).toBe(true);
      expect(await store().deleteRunProcess("r1", 300)).toBe(false);
      expect((await store().listRunProcesses("r1")).map((p) => p.pid)).toEqual([200]);
      expect((await store().listRunProcesses("r2")).map((p) => p.pid)).toEqual([300]);
    });

    it("lists by start time then id, filtered by company and agent", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertAgent(agent("cto"));
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertRun(run("z"));
      setClock("2025-01-01T00:00:01.000Z");
      await store().insertRun(run("b", { agentId: "cto" }));
      await store().insertRun(run("a"));
      await store().insertRun(run("other", { companyId: "co2", agentId: "ceo-co2" }));
      const ids = async (filter?: { companyId?: string; agentId?: string }) =>
        (await store().listRuns(filter)).map((r) => r.id);
      expect(await ids()).toEqual(["z", "a", "b", "other"]);
      expect(await ids({ companyId: "co1" })).toEqual(["z", "a", "b"]);
      expect(await ids({ agentId: "cto" })).toEqual(["b"]);
      expect(await ids({ companyId: "co2", agentId: "cto" })).toEqual([]);
    });
  });

  describe("run events", () => {
    it("appends in order with strictly increasing global ids", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      setClock("2025-06-07T08:09:10.111Z");
      const data = [
        { text: "hi" },
        [1, "two", null, true],
        "plain",
        3.5,
        null,
        { nested: { deep: [{ x: false }] } },
      ];
      const first = await store().appendRunEvents(
        data.map((d, seq) => runEvent("r1", seq, { data: d, type: `t${seq}` })),
      );
      expect(
        first.map(({ runId, companyId, seq, type, data, at }) => ({ runId, companyId, seq, type, data, at })),
      ).toEqual(
        data.map((d, seq) => ({
          runId: "r1",
          companyId: "co1",
          seq,
          type: `t${seq}`,
          data: d,
          at: "2025-06-07T08:09:10.111Z",
        })),
      );
      const second = await store().appendRunEvents([runEvent("r2", 0), runEvent("r1", 6)]);
      const ids = [...first, ...second].map((e) => e.id);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
      expect(await store().listRunEvents("r1")).toEqual([...first, second[1]]);
      expect(await store().appendRunEvents([])).toEqual([]);
    });

    it("reads a run's events after an id", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      const events = await store().appendRunEvents([
        runEvent("r1", 0),
        runEvent("r2", 0),
        runEvent("r1", 1),
        runEvent("r1", 2),
      ]);
      const r1 = events.filter((e) => e.runId === "r1");
      expect(await store().listRunEvents("r1", r1[0]!.id)).toEqual(r1.slice(1));
      expect(await store().listRunEvents("r1", r1[2]!.id)).toEqual([]);
      expect(await store().listRunEvents("r2")).toEqual([events[1]]);
      expect(await store().listRunEvents("missing")).toEqual([]);
    });

    it("reads a company's events in global order, after an id, up to a limit", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().insertRun(run("x", { companyId: "co2", agentId: "ceo-co2" }));
      const events = await store().appendRunEvents([
        runEvent("r1", 0),
        runEvent("r2", 0),
        runEvent("x", 0, { companyId: "co2" }),
        runEvent("r1", 1),
        runEvent("r2", 1),
      ]);
      const co1 = events.filter((e) => e.companyId === "co1");
      expect(await store().listCompanyEvents("co1")).toEqual(co1);
      expect(await store().listCompanyEvents("co1", co1[1]!.id)).toEqual(co1.slice(2));
      expect(await store().listCompanyEvents("co1", undefined, 2)).toEqual(co1.slice(0, 2));
      expect(await store().listCompanyEvents("co1", co1[0]!.id, 2)).toEqual(co1.slice(1, 3));
      expect(await store().listCompanyEvents("co2")).toEqual([events[2]]);
    });

    it("rejects a repeated (run, seq) with a ConflictError and appends none of the batch", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().appendRunEvents([runEvent("r1", 0)]);
      const before = await store().counts();
      const error = await store()
        .appendRunEvents([runEvent("r1", 1), runEvent("r1", 0)])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toContain("r1");
      expect(await store().counts()).toEqual(before);
      expect((await store().listRunEvents("r1")).map((e) => e.seq)).toEqual([0]);
    });
  });

  describe("activity", () => {
    it("round-trips with increasing ids, filtered by type and company", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertRun(run("r1"));
      setClock("2025-07-08T09:10:11.121Z");
      const created = await store().insertActivity(
        activity("company.created", { data: { name: "Acme", ceoAgentId: "ceo", connectors: [] } }),
      );
      const hired = await store().insertActivity(activity("agent.hired", { agentId: "ceo", runId: "r1" }));
      await store().insertActivity(activity("agent.hired", { companyId: "co2" }));
      expect(created).toEqual({
        id: expect.any(Number),
        companyId: "co1",
        agentId: null,
        runId: null,
        type: "company.created",
        data: { name: "Acme", ceoAgentId: "ceo", connectors: [] },
        at: "2025-07-08T09:10:11.121Z",
      });
      expect(hired).toMatchObject({ agentId: "ceo", runId: "r1", data: SAMPLE_DOMAIN_EVENTS["agent.hired"] });
      expect(hired.id).toBeGreaterThan(created.id);
      expect(await store().listActivity("co1")).toEqual([created, hired]);
      expect(await store().listActivity("co1", { type: "agent.hired" })).toEqual([hired]);
      expect(await store().listActivity("co3")).toEqual([]);
    });
  });
}
