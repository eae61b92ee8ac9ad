import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "./approvals/decide.js";
import { createCompany } from "./companies.js";
import { loadCompanyState } from "./state.js";
import { wakeAgent } from "./wake.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function newCompany() {
  const company = await createCompany(store, {
    name: "Acme Robotics",
    goal: "Build warehouse robots and sell them to logistics companies.",
  });
  const state = await loadCompanyState(store, company.id);
  return { company, ceo: state.ceo };
}

describe("CEO team building through the real Pi agent loop and the offline connector", () => {
  it("hires 3–5 agents via the tool, files one pending strategy, ends in awaiting-approval; approve → operating", async () => {
    const { company, ceo } = await newCompany();
    const events: string[] = [];
    const result = await wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      seed: 7,
      onEvent: (e) => events.push(e.type),
    });
    expect(result.terminal).toBe("done");
    expect(result.modeBefore).toBe("team-building");
    expect(result.modeAfter).toBe("awaiting-approval");
    const agents = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
    expect(agents.length).toBeGreaterThanOrEqual(3);
    expect(agents.length).toBeLessThanOrEqual(5);
    expect(
      agents.every((a) => a.via === "tool" && a.reportsTo === ceo.id && a.connectorId === "offline"),
    ).toBe(true);
    const approvals = await store.listApprovals(company.id);
    expect(approvals.map((a) => [a.type, a.status, a.via])).toEqual([
      ["approve_ceo_strategy", "pending", "tool"],
    ]);
    expect((await store.listActivity(company.id, { type: "agent.hired" })).length).toBe(agents.length);
    expect(events.filter((t) => t === "terminal")).toHaveLength(1);
    expect(events).toContain("tool_use");
    const stored = await store.listRunEvents(result.run.id);
    expect(stored.map((e) => e.type)).toEqual(events);
    expect(result.run.usage.input + result.run.usage.cacheRead).toBeGreaterThan(0);

    const decided = await decideApproval(store, approvals[0]!.id, "approve", "Good plan");
    expect(decided.modeAfter).toBe("operating");
    const next = await wakeAgent({ store, agentId: ceo.id, seed: 7 });
    expect(next.modeBefore).toBe("operating");
    expect(next.cue).toContain("Operating Phase");
    expect(next.cue).toContain("decided");
  });

  it("rejecting moves the CEO to revising; the next wake's cue and prompt say so and a revised strategy is filed", async () => {
    const { company, ceo } = await newCompany();
    await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 3 });
    const [strategy] = await store.listApprovals(company.id);
    const decided = await decideApproval(
      store,
      strategy!.id,
      "reject",
      "Add a finance lead and cut the marketing spend.",
    );
    expect(decided.modeAfter).toBe("revising");
    const next = await wakeAgent({ store, agentId: ceo.id, seed: 3 });
    expect(next.modeBefore).toBe("revising");
    expect(next.cue).toContain("Revision Phase");
    const approvals = await store.listApprovals(company.id);
    expect(approvals.map((a) => a.status)).toEqual(["rejected", "pending"]);
    expect(approvals[1]!.payload).toContain("Add a finance lead");
    expect(next.modeAfter).toBe("awaiting-approval");
  });

  it("different seeds give different teams (seeded variation), the same seed the same team", async () => {
    const teams: string[][] = [];
    for (const seed of [1, 2, 3, 4, 5, 1]) {
      const { company, ceo } = await newCompany();
      await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed });
      teams.push((await store.listAgents(company.id)).filter((a) => !a.isCeo).map((a) => a.name));
    }
    expect(teams[5]).toEqual(teams[0]);
    expect(new Set(teams.map((t) => t.join("|"))).size).toBeGreaterThan(1);
  });

  it("refuses to wake a team member before the strategy is approved (governance in code)", async () => {
    const { company, ceo } = await newCompany();
    await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 1 });
    const member = (await store.listAgents(company.id)).find((a) => !a.isCeo)!;
    await expect(wakeAgent({ store, agentId: member.id })).rejects.toThrow(/strategy is not approved/);
  });
});
