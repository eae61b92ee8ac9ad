// The state a run started from, rebuilt from a real store after the company moved on: a decision
// and a termination made later do not leak into the earlier moment; the run's own hires are left out.
import { decideApproval, hireAgent, terminateAgent } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { afterEach, describe, expect, it } from "vitest";
import { loadScenarios } from "../scenario/load.js";
import { seedScenario } from "../scenario/seed.js";
import { stateAt } from "./state-at.js";

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A moment strictly after every row written so far (timestamps are milliseconds). */
async function moment(): Promise<string> {
  const at = new Date().toISOString();
  while (new Date().toISOString() === at) await new Promise((r) => setTimeout(r, 1));
  return at;
}

describe("the state at a moment of a run", () => {
  it("keeps what was true then, whatever changed later", async () => {
    store = await openStore({ memory: true });
    const [loaded] = await loadScenarios(undefined, ["pending-strategy"]);
    const seeded = await seedScenario(store, loaded!.scenario, { profile: "semantic" });
    const t = await moment();
    const [strategy] = await store.listApprovals(seeded.companyId);
    await decideApproval(store, strategy!.id, "approve", null);
    const member = (await store.listAgents(seeded.companyId)).find((a) => !a.isCeo)!;
    await terminateAgent(store, member.id);

    const then = await stateAt(store, seeded.companyId, t);
    expect(then.mode).toBe("awaiting-approval");
    expect(then.approvals.map((a) => a.statusThen)).toEqual(["pending"]);
    expect(then.team.map((m) => m.statusThen)).toEqual(["active", "active", "active"]);
    const now = await stateAt(store, seeded.companyId, await moment());
    expect(now.mode).toBe("operating");
    expect(now.approvals.map((a) => a.statusThen)).toEqual(["approved"]);
    expect(now.team.filter((m) => m.statusThen === "terminated").map((m) => m.id)).toEqual([member.id]);
  });

  it("leaves out what the run itself created", async () => {
    store = await openStore({ memory: true });
    const [loaded] = await loadScenarios(undefined, ["empty-single-connector"]);
    const seeded = await seedScenario(store, loaded!.scenario, { profile: "semantic" });
    const run = await store.insertRun({
      id: "run_capture_test",
      companyId: seeded.companyId,
      agentId: seeded.ceoId,
      trigger: "start_team_building",
      mode: "team-building",
      profile: "semantic",
      cue: "cue",
    });
    const hired = await hireAgent(
      store,
      { companyId: seeded.companyId, agentId: seeded.ceoId, via: "tool", runId: run.id },
      {
        name: "CTO",
        role: "Chief Technology Officer",
        description: "Leads engineering.",
        connectorId: "offline",
        model: "offline-scripted-1",
        department: "engineering",
      },
      { toolCallId: "call_1" },
    );
    expect(hired.ok).toBe(true);
    // Even at a moment after the hire, the run's start excludes it; without the run, it is there.
    const at = await moment();
    expect((await stateAt(store, seeded.companyId, at, run.id)).team).toEqual([]);
    expect((await stateAt(store, seeded.companyId, at)).team.map((m) => m.name)).toEqual(["CTO"]);
  });
});
