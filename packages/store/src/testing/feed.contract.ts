// The company feed: run events and activity of a company in one strictly increasing id space, in
// commit order, written in the same transaction as the rows it points to.
import { DOMAIN_EVENT_TYPES } from "@cadre/model";
import { SAMPLE_DOMAIN_EVENTS } from "@cadre/model/testing";
import { describe, expect, it } from "vitest";
import type { NewActivity } from "../types.js";
import { activity, approval, run, runEvent, seed, type GetStore } from "./fixtures.js";

export function feedContract(store: GetStore): void {
  describe("company feed", () => {
    it("interleaves run events and activity in the order they were written, per company", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertRun(run("r1"));
      await store().insertRun(run("x", { companyId: "co2", agentId: "ceo-co2" }));
      const [e0, e1] = await store().appendRunEvents([runEvent("r1", 0), runEvent("r1", 1)]);
      const hired = await store().insertActivity(activity("agent.hired", { runId: "r1" }));
      await store().appendRunEvents([runEvent("x", 0, { companyId: "co2" })]);
      await store().insertActivity(activity("company.created", { companyId: "co2" }));
      const [e2] = await store().appendRunEvents([runEvent("r1", 2)]);

      const feed = await store().listFeed("co1");
      expect(feed.map((f) => (f.kind === "agent_event" ? f.event : f.activity))).toEqual([e0, e1, hired, e2]);
      expect(feed.map((f) => f.kind)).toEqual(["agent_event", "agent_event", "domain_event", "agent_event"]);
      for (let i = 1; i < feed.length; i++) expect(feed[i]!.id).toBeGreaterThan(feed[i - 1]!.id);
      expect(feed.every((f) => f.companyId === "co1")).toBe(true);
      expect((await store().listFeed("co2")).map((f) => f.kind)).toEqual(["agent_event", "domain_event"]);
      expect(await store().listFeed("nobody")).toEqual([]);
    });

    it("writes a batch of activities in order, each with its feed entry, or none of them", async () => {
      await seed(store());
      const [a, b, c] = await store().insertActivities([
        activity("agent.hired"),
        activity("mode.changed"),
        activity("approval.filed"),
      ]);
      expect([a!.type, b!.type, c!.type]).toEqual(["agent.hired", "mode.changed", "approval.filed"]);
      expect(a!.id).toBeLessThan(b!.id);
      expect(b!.id).toBeLessThan(c!.id);
      expect(c!.data).toEqual(SAMPLE_DOMAIN_EVENTS["approval.filed"]);
      const feed = await store().listFeed("co1");
      expect(feed.map((f) => (f.kind === "domain_event" ? f.activity : undefined))).toEqual([a, b, c]);
      expect(await store().insertActivities([])).toEqual([]);
      // One row refused (no such company): the batch writes nothing.
      await expect(
        store().insertActivities([activity("agent.hired"), activity("agent.hired", { companyId: "nobody" })]),
      ).rejects.toThrow();
      expect(await store().listFeed("co1")).toHaveLength(3);
      expect(await store().listActivity("co1")).toHaveLength(3);
    });

    it("keeps every domain event type as written, its data read back whole, in the feed too", async () => {
      await seed(store());
      const written = await store().insertActivities(DOMAIN_EVENT_TYPES.map((type) => activity(type)));
      expect(written.map((a) => [a.type, a.data])).toEqual(
        DOMAIN_EVENT_TYPES.map((type) => [type, SAMPLE_DOMAIN_EVENTS[type]]),
      );
      expect(await store().listActivity("co1")).toEqual(written);
      const feed = await store().listFeed("co1");
      expect(feed.map((f) => (f.kind === "domain_event" ? f.activity : undefined))).toEqual(written);
    });

    it("refuses an activity that is not a domain event, saying what is wrong, and writes nothing", async () => {
      await seed(store());
      const before = await store().counts();
      // Untyped writers (JSON, casts) are the ones that can get here.
      const unknown = { ...activity("run.stopped"), type: "note.added" } as unknown as NewActivity;
      await expect(store().insertActivity(unknown)).rejects.toThrow(
        /type "note\.added".*nothing was written: "note\.added" is not a domain event type; the types are: .*agent\.hired/,
      );
      const missing = activity("agent.hired", { data: { agentId: "a1" } });
      await expect(store().insertActivity(missing)).rejects.toThrow(/`data\.name` is required/);
      const extra = activity("run.stopped", { data: { reason: "stop", why: "typo" } });
      await expect(store().insertActivity(extra)).rejects.toThrow(
        /`data\.why` unknown field; allowed fields: reason/,
      );
      const wrong = activity("mode.changed", { data: { from: "team-building", to: "dancing", reason: "" } });
      await expect(store().insertActivity(wrong)).rejects.toThrow(/`data\.to`/);
      // One bad activity of a batch, or of a transaction, and none of it is written.
      await expect(store().insertActivities([activity("agent.hired"), unknown])).rejects.toThrow(
        /activity 2 of 2/,
      );
      await expect(
        store().transaction(async (tx) => {
          await tx.insertActivity(activity("agent.hired"));
          await tx.insertActivity(extra);
        }),
      ).rejects.toThrow(/unknown field/);
      expect(await store().counts()).toEqual(before);
    });

    it("tells its feed listeners of each write that grew a feed, a transaction's once it commits, none rolled back", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertRun(run("r1"));
      const heard: string[][] = [];
      const stop = store().onFeedWrite((ids) => heard.push([...ids].sort()));
      await store().insertActivity(activity("run.stopped"));
      await store().appendRunEvents([runEvent("r1", 0)]);
      expect(heard).toEqual([["co1"], ["co1"]]);
      await store().transaction(async (tx) => {
        await tx.insertActivity(activity("run.stopped"));
        await tx.insertActivity(activity("company.created", { companyId: "co2" }));
        await tx.appendRunEvents([runEvent("r1", 1)]);
        // Not yet: a listener reading the feed now would not find the rows.
        expect(heard).toHaveLength(2);
      });
      expect(heard).toEqual([["co1"], ["co1"], ["co1", "co2"]]);
      await expect(
        store().transaction(async (tx) => {
          await tx.insertActivity(activity("run.stopped"));
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      // A refused write and a write that touched no feed are not heard either.
      await expect(store().insertActivity(activity("run.stopped", { data: {} }))).rejects.toThrow();
      await store().transaction(async (tx) => tx.insertApproval(approval("ap1"), "ceo"));
      expect(heard).toHaveLength(3);
      stop();
      await store().insertActivity(activity("run.stopped"));
      expect(heard).toHaveLength(3);
    });

    it("reads after an id and up to a limit", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().appendRunEvents([0, 1, 2, 3].map((seq) => runEvent("r1", seq)));
      const all = await store().listFeed("co1");
      expect(await store().listFeed("co1", all[1]!.id)).toEqual(all.slice(2));
      expect(await store().listFeed("co1", undefined, 2)).toEqual(all.slice(0, 2));
      expect(await store().listFeed("co1", all[0]!.id, 2)).toEqual(all.slice(1, 3));
      expect(await store().listFeed("co1", all.at(-1)!.id)).toEqual([]);
    });

    it("is written with its rows: a rolled-back transaction leaves no feed entry behind", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      const before = await store().counts();
      await expect(
        store().transaction(async (tx) => {
          await tx.insertApproval(approval("ap1"), "ceo");
          await tx.insertActivity(activity("approval.filed"));
          await tx.appendRunEvents([runEvent("r1", 0)]);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await store().counts()).toEqual(before);
      expect(await store().listFeed("co1")).toEqual([]);
    });
  });
}
