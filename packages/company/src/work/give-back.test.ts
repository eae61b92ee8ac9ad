// OP-5: a run that did not finish gives the reasons it took back to pending, once per run; a reason
// whose runs keep being lost is cancelled explicitly, with a note, instead of being retried for ever.
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { giveBackRunWork, MAX_RETURNS } from "./release.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

describe("giving back a run's work", () => {
  it("returns every reason it took, whatever the trigger; after MAX_RETURNS lost runs the reason is cancelled with a note", async () => {
    const company = await createCompany(store, { name: "Acme", goal: "Build robots." });
    const ceo = (await loadCompanyState(store, company.id)).ceo.id;
    for (const [id, trigger] of [
      ["w-approval", "approval_decided"],
      ["w-routine", "routine"],
    ] as const)
      await store.insertWakeRequest({
        id,
        companyId: company.id,
        agentId: ceo,
        trigger,
        taskId: null,
        causedBy: "operator",
        cause: "test",
      });
    for (let attempt = 1; attempt <= MAX_RETURNS + 1; attempt++) {
      const runId = `run-${attempt}`;
      await store.insertRun({
        id: runId,
        companyId: company.id,
        agentId: ceo,
        trigger: "approval_decided",
        mode: "operating",
        profile: "semantic",
        cue: "c",
      });
      for (const r of await store.listWakeRequests({ agentId: ceo, status: "pending" }))
        await store.settleWakeRequest(r.id, { status: "taken", runId });
      const run = { id: runId, companyId: company.id, agentId: ceo };
      const back = await store.transaction((tx) =>
        giveBackRunWork(tx, run, "the process running it stopped"),
      );
      // Given back once: a second pass over the same run finds nothing it still holds.
      const again = await store.transaction((tx) =>
        giveBackRunWork(tx, run, "the process running it stopped"),
      );
      expect(again.returned).toEqual([]);
      expect(again.cancelled).toEqual([]);
      if (attempt <= MAX_RETURNS) {
        expect(back.returned.map((r) => [r.id, r.returns])).toEqual([
          ["w-approval", attempt],
          ["w-routine", attempt],
        ]);
        expect(back.cancelled).toEqual([]);
      } else {
        expect(back.returned).toEqual([]);
        expect(back.cancelled.map((r) => r.id)).toEqual(["w-approval", "w-routine"]);
      }
    }
    const all = await store.listWakeRequests({ agentId: ceo });
    expect(all.map((r) => r.status)).toEqual(["dropped", "dropped"]);
    for (const r of all) expect(r.note).toMatch(/^cancelled: 4 runs that took this reason did not finish/);
    expect(await store.listActivity(company.id, { type: "wake.returned" })).toHaveLength(2 * MAX_RETURNS);
    expect(await store.listActivity(company.id, { type: "wake.cancelled" })).toHaveLength(2);
  });
});
