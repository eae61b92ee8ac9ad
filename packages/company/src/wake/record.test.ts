// The record stage, on a claimed run with no session (fed events by hand): the first event is
// written at once, deltas wait for a batch, and a usage event is written with the run's totals and
// its call settled in the ledger; events due together are written together once no further event
// waits, a usage at once whatever waits behind it.
import type { AgentEvent } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimedRun as claimedRunOn } from "./claimed-run.testing.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

const claimedRun = (shown: AgentEvent[]) => claimedRunOn(store, shown);

const usage = { input: 120, output: 30, cacheRead: 0, cacheWrite: 0 };

describe("a run's record", () => {
  it("writes the first event at once, batches deltas, and a usage event with the totals and its settled call", async () => {
    const shown: AgentEvent[] = [];
    const { ctx } = await claimedRun(shown);
    const { record, run } = ctx;
    try {
      const stored = async () => (await store.listRunEvents(run.id)).map((e) => e.type);
      const step = async (event: AgentEvent) => {
        record.take(event, []);
        if (record.due(event)) await record.flush();
      };
      await step({ type: "turn_start", turn: 1 });
      expect(await stored()).toEqual(["turn_start"]);
      await step({ type: "text_delta", index: 0, delta: "Hel" });
      await step({ type: "text_delta", index: 0, delta: "lo" });
      expect(await stored()).toEqual(["turn_start"]);
      await step({ type: "usage", usage, servedModel: ctx.plan.agent.model });
      expect(await stored()).toEqual(["turn_start", "text_delta", "text_delta", "usage"]);
      const row = await store.getRun(run.id);
      expect(row?.usage).toMatchObject({ input: 120, output: 30 });
      expect((await store.spendOf({ companyId: run.companyId, runId: run.id })).tokens).toBe(150);
      expect(shown.map((e) => e.type)).toEqual(["turn_start", "text_delta", "text_delta", "usage"]);
    } finally {
      ctx.claim.lease?.stop();
    }
  });

  it("writes due events that come together in one write once none waits, and a usage at once", async () => {
    const { ctx } = await claimedRun([]);
    const { record, run } = ctx;
    try {
      const stored = async () => (await store.listRunEvents(run.id)).map((e) => e.type);
      const waitingNext = Promise.resolve("the next event is there");
      const noNext = new Promise<never>(() => {});
      const step = async (event: AgentEvent, next: Promise<unknown>) => {
        record.take(event, []);
        await record.writeDue(event, next);
      };
      await step({ type: "turn_start", turn: 1 }, noNext);
      await step({ type: "usage", usage, servedModel: ctx.plan.agent.model }, waitingNext);
      expect(await stored()).toEqual(["turn_start", "usage"]);
      await step({ type: "turn_end", turn: 1, stopReason: "end_turn" }, waitingNext);
      expect(await stored()).toEqual(["turn_start", "usage"]);
      await step({ type: "terminal", status: "done" }, noNext);
      const events = await store.listRunEvents(run.id);
      expect(events.map((e) => e.type)).toEqual(["turn_start", "usage", "turn_end", "terminal"]);
      // One write: the two were appended by one statement, at one time.
      expect(events[2]!.at).toBe(events[3]!.at);
      await record.writeOwed();
      expect(await stored()).toHaveLength(4);
    } finally {
      ctx.claim.lease?.stop();
    }
  });

  it("writes an event still owed when the stream ends", async () => {
    const { ctx } = await claimedRun([]);
    const { record, run } = ctx;
    try {
      record.take({ type: "turn_start", turn: 1 }, []);
      await record.writeDue({ type: "turn_start", turn: 1 }, Promise.resolve());
      expect(await store.listRunEvents(run.id)).toHaveLength(0);
      await record.writeOwed();
      expect((await store.listRunEvents(run.id)).map((e) => e.type)).toEqual(["turn_start"]);
    } finally {
      ctx.claim.lease?.stop();
    }
  });
});
