// The settle stage, on a claimed run with no session (fed events by hand): the run's end writes the
// rest of its events, finishes the run and frees the agent for its next wake, in one transaction.
import type { AgentEvent } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimWake } from "./claim.js";
import { claimedRun as claimedRunOn } from "./claimed-run.testing.js";
import { settleRun } from "./settle.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

const claimedRun = (shown: AgentEvent[]) => claimedRunOn(store, shown);

describe("a run's end", () => {
  it("settles the run's end: the rest written, the run finished with its usage, the agent free to wake again", async () => {
    const shown: AgentEvent[] = [];
    const { ctx, options, plan } = await claimedRun(shown);
    const { record, run } = ctx;
    record.take({ type: "text_end", index: 0, text: "All done." }, []);
    record.take({ type: "terminal", status: "done" }, []);
    await settleRun(ctx);
    ctx.claim.lease?.stop();
    expect((await store.listRunEvents(run.id)).map((e) => e.type)).toEqual(["text_end", "terminal"]);
    expect(await store.getRun(run.id)).toMatchObject({ status: "done", error: null });
    expect((await store.getAgentSession(plan.agent.id))?.runningRunId).toBeNull();
    const again = await claimWake(plan, options, false);
    expect(again?.started.run.status).toBe("running");
    again?.lease?.stop();
  });
});
