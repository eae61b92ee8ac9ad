// The plan stage: one read each of the agent, the company and the budgets that apply, whatever
// else the wake needs; whatever refuses the wake refuses it here, before anything is written.
import { UserInputError } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BudgetExhaustedError } from "../budgets/policy.js";
import { setBudget } from "../budgets/manage.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { checkDue } from "../work/due-check.js";
import { planWake } from "./plan.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

/** The store, counting the calls of each of its methods. */
function counting(inner: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function" || typeof name !== "string") return value;
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

async function company() {
  const c = await createCompany(store, { name: "Acme", goal: "Robots for warehouses." });
  return { company: c, ceo: (await loadCompanyState(store, c.id)).ceo };
}

describe("a wake's plan", () => {
  it("reads the agent, the company's summary, its directory and each budget once, never the team, and builds the prompt for the CEO's mode", async () => {
    const { ceo } = await company();
    await setBudget(store, { companyId: ceo.companyId, agentId: ceo.id }, { tokens: 1_000_000 });
    const { store: counted, calls } = counting(store);
    const plan = await planWake({ store: counted, agentId: ceo.id, env: {} });
    expect(plan.mode).toBe("team-building");
    expect(plan.prompt.systemPrompt).toContain("team");
    expect(plan.budgets.agent?.limitTokens).toBe(1_000_000);
    expect(calls.get("getAgent")).toBe(1);
    expect(calls.get("getCompanySummary")).toBe(1);
    // The CEO's directory: the first of the team and its count, in one read.
    expect(calls.get("listTeam")).toBe(1);
    expect(calls.get("getCompanySnapshot") ?? 0).toBe(0);
    expect(calls.get("listAgents") ?? 0).toBe(0);
    // The company's budget and the agent's: one read each (their stops are judged from those rows).
    expect(calls.get("getBudget")).toBe(2);
    expect(calls.get("transaction") ?? 0).toBe(0);
  });

  it("refuses an exhausted budget, naming it, with nothing written", async () => {
    const { ceo } = await company();
    await setBudget(store, { companyId: ceo.companyId }, { tokens: 100 });
    const before = await store.listRuns({ companyId: ceo.companyId });
    const refused = planWake({ store, agentId: ceo.id, env: {} });
    await expect(refused).rejects.toThrow(BudgetExhaustedError);
    await expect(refused).rejects.toThrow(/cannot wake: .*budget.*exhausted/);
    expect(await store.listRuns({ companyId: ceo.companyId })).toEqual(before);
  });

  it("refuses an agent that does not exist or is not active", async () => {
    const { ceo } = await company();
    await expect(
      planWake({ store, agentId: ceo.id, trigger: "start_team_building", env: {} }),
    ).resolves.toBeDefined();
    await expect(planWake({ store, agentId: "agent_nobody", env: {} })).rejects.toThrow(
      /agent agent_nobody not found/,
    );
    await store.setAgentStatus(ceo.id, "terminated");
    await expect(planWake({ store, agentId: ceo.id, env: {} })).rejects.toThrow(UserInputError);
    await expect(planWake({ store, agentId: ceo.id, env: {} })).rejects.toThrow(
      /is terminated; only active agents/,
    );
  });

  it("takes the agent and its budgets from a due-work pass's check instead of reading them again", async () => {
    const { ceo } = await company();
    await store.insertWakeRequest({
      id: "wrq_test",
      companyId: ceo.companyId,
      agentId: ceo.id,
      trigger: "routine",
      taskId: null,
      causedBy: "operator",
      cause: "test",
    });
    const check = await checkDue(store, ceo.id);
    if (!check.due) throw new Error("the CEO has a due request");
    expect(check.held).toBeUndefined();
    const { store: counted, calls } = counting(store);
    const plan = await planWake({ store: counted, agentId: ceo.id, env: {}, checked: check.checked });
    expect(plan.agent).toEqual(ceo);
    expect(calls.get("getAgent") ?? 0).toBe(0);
    expect(calls.get("getBudget") ?? 0).toBe(0);
    expect(calls.get("spendOf") ?? 0).toBe(0);
  });
});
