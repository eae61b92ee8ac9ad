// How code's stop reaches the run's events: the budget observes a harness's reported calls through
// one interface (counted one by one only where the harness reports each), and a run it stopped
// ends on its reason — a reason event first, then one failed terminal naming it.
import type { AgentEvent } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setBudget } from "../budgets/manage.js";
import { RunBudget } from "../budgets/run-budget.js";
import { createCompany } from "../companies.js";
import { DriftWatch } from "../model-drift.js";
import { loadCompanyState } from "../state.js";
import { endingOf } from "./ending.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

const usage: AgentEvent = { type: "usage", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } };

async function budgetWithOneModelCall(
  enforcement: "before-each-call" | "after-each-reported-call" | "after-each-reported-turn",
) {
  const c = await createCompany(store, { name: "Acme", goal: "Robots for warehouses." });
  const ceo = (await loadCompanyState(store, c.id)).ceo;
  await setBudget(store, { companyId: c.id }, { runModelCalls: 1, runToolCalls: 1 });
  return RunBudget.open(store, ceo, "run_test", { enforcement });
}

describe("the budget observing a run's events", () => {
  it("counts each reported call of a harness that reports each one, and stops it at the cap", async () => {
    const budget = await budgetWithOneModelCall("after-each-reported-call");
    expect(budget.cancelsHarness).toBe(true);
    budget.observe(usage, []);
    expect(budget.stop).toMatchObject({
      reason: "run_cap",
      message: expect.stringMatching(/cap of 1 model calls/),
    });
  });

  it("does not count usage where calls are reserved before they are sent, or reported a turn at a time", async () => {
    for (const enforcement of ["before-each-call", "after-each-reported-turn"] as const) {
      const budget = await budgetWithOneModelCall(enforcement);
      budget.observe(usage, []);
      expect(budget.stop).toBeUndefined();
      expect(budget.cancelsHarness).toBe(enforcement !== "before-each-call");
    }
  });

  it("counts a tool the harness ran itself or refused, not one of the run's own (they count themselves)", async () => {
    const budget = await budgetWithOneModelCall("after-each-reported-call");
    const offered = [{ name: "hire_agent" }];
    budget.observe({ type: "tool_use", id: "t1", name: "hire_agent", input: {} }, offered);
    budget.observe({ type: "tool_use", id: "t2", name: "Bash", input: {} }, offered);
    expect(budget.stop).toBeUndefined();
    budget.observe({ type: "tool_use", id: "t3", name: "Read", input: {} }, offered);
    expect(budget.stop).toMatchObject({
      reason: "run_cap",
      message: expect.stringMatching(/cap of 1 tool calls/),
    });
  });
});

describe("a run code stopped", () => {
  it("ends failed on the budget's reason, said once before the terminal", async () => {
    const budget = await budgetWithOneModelCall("after-each-reported-call");
    const drift = new DriftWatch("claude-sonnet-4-5", "warn");
    budget.observe(usage, []);
    const said: AgentEvent[] = [];
    const end = endingOf({ type: "terminal", status: "done" }, { budget, drift }, (e) => said.push(e));
    expect(said).toEqual([{ type: "error", code: "run_cap", message: budget.stop!.message }]);
    expect(end).toEqual({ type: "terminal", status: "failed", reason: `run_cap: ${budget.stop!.message}` });
    const recovery = endingOf(
      { type: "recovery", action: "fail-closed", reason: "not an explicit context-overflow error" },
      { budget, drift },
      (e) => said.push(e),
    );
    expect(recovery).toMatchObject({
      reason: "the run's cap stopped the run before this call; nothing to replay",
    });
    expect(said).toHaveLength(1);
  });

  it("leaves a run nobody stopped as it ended", async () => {
    const budget = await budgetWithOneModelCall("before-each-call");
    const drift = new DriftWatch("claude-sonnet-4-5", "warn");
    const said: AgentEvent[] = [];
    const done: AgentEvent = { type: "terminal", status: "done" };
    expect(endingOf(done, { budget, drift }, (e) => said.push(e))).toBe(done);
    expect(said).toEqual([]);
  });
});
