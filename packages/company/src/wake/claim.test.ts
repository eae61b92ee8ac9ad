// The claim stage: the run row, its wake, its due work and the agent's session lock in one
// transaction; a second claim of the agent is refused while the first holds it, and a wake for due
// work alone that finds none writes nothing.
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { claimWake } from "./claim.js";
import { AgentBusyError } from "./own-lease.js";
import { planWake } from "./plan.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function ceo() {
  const c = await createCompany(store, { name: "Acme", goal: "Robots for warehouses." });
  return (await loadCompanyState(store, c.id)).ceo;
}

describe("a wake's claim", () => {
  it("writes the run, its wake and the session lock together; a second claim is refused with nothing written", async () => {
    const agent = await ceo();
    const options = { store, agentId: agent.id, trigger: "start_team_building" as const, env: {} };
    const plan = await planWake(options);
    const claim = await claimWake(plan, options, false);
    try {
      expect(claim?.started.run).toMatchObject({
        agentId: agent.id,
        trigger: "start_team_building",
        status: "running",
      });
      expect(claim?.started.cue).toBe(plan.cueOf("start_team_building"));
      expect((await store.getAgentSession(agent.id))?.runningRunId).toBe(claim?.runId);
      const runs = await store.listRuns({ companyId: agent.companyId });
      await expect(claimWake(plan, options, false)).rejects.toThrow(AgentBusyError);
      expect(await store.listRuns({ companyId: agent.companyId })).toEqual(runs);
    } finally {
      claim?.lease?.stop();
    }
  });

  it("finds nothing due for a wake that starts only for due work: undefined, nothing written", async () => {
    const agent = await ceo();
    const options = { store, agentId: agent.id, env: {} };
    const plan = await planWake(options);
    expect(await claimWake(plan, options, true)).toBeUndefined();
    expect(await store.listRuns({ companyId: agent.companyId })).toEqual([]);
    expect(await store.getAgentSession(agent.id)).toBeUndefined();
  });
});
