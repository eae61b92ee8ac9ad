// Spend control as an operator sees it, through the real Pi loop and the
// offline model, on both store dialects: a run that hits its budget or a cap stops with a clear
// reason event and nothing half-written; a stopped budget refuses the next wake; raising it
// continues the work; concurrent wakes never overspend; costs are usage × price.
import { usageCost } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { decideApproval } from "../approvals/decide.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { wakeAgent, wakeIfDue } from "../wake.js";
import { runDue } from "../work/dispatch.js";
import { createTask } from "../work/tasks.js";
import { budgetReport, setBudget } from "./manage.js";
import { BudgetExhaustedError } from "./policy.js";

afterAll(dropTestSchemas);

const DIALECTS: Array<[string, () => Promise<Store>]> = [
  ["sqlite", () => openStore({ memory: true })],
  ["postgres", () => openStore({ url: testDatabaseUrl(), schema: freshSchema(), poolSize: 6 })],
];

describe.each(DIALECTS)("spend control (%s)", (_dialect, open) => {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  async function newCompany() {
    const company = await createCompany(store, { name: "Acme Robotics", goal: "Build warehouse robots." });
    return { company, ceo: (await loadCompanyState(store, company.id)).ceo };
  }

  it("a new company has a monthly USD budget and run caps, shown, changeable; no budget is explicit", async () => {
    const { company } = await newCompany();
    const report = await budgetReport(store, { companyId: company.id });
    expect(report.budget).toMatchObject({
      limitUsd: 10,
      limitTokens: null,
      period: "month",
      stored: true,
      state: "ok",
    });
    expect(report.runCaps).toEqual({
      maxModelCalls: 100,
      maxToolCalls: 200,
      maxTokens: 2_000_000,
      maxUsd: 2,
      maxWallSeconds: 1_800,
    });
    const none = await setBudget(store, { companyId: company.id }, { none: true });
    expect(none.budget).toMatchObject({ limitUsd: null, limitTokens: null, state: "none" });
    await expect(setBudget(store, { companyId: company.id }, { usd: -1 })).rejects.toThrow(/usd/);
    await expect(setBudget(store, { companyId: company.id }, { none: true, usd: 3 })).rejects.toThrow(
      /--none/,
    );
    expect((await budgetReport(store, { companyId: company.id })).budget.state).toBe("none");
  });

  it("a token budget stops the run at the call it cannot cover, refuses the next wake, and raising it continues the work", async () => {
    const { company, ceo } = await newCompany();
    await setBudget(store, { companyId: company.id }, { tokens: 1500 });
    const events: Array<{ type: string; code?: string; status?: string; reason?: string }> = [];
    const first = await wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      seed: 7,
      onEvent: (e) => events.push(e as never),
    });
    expect(first.terminal).toBe("failed");
    expect(first.stopReason).toBe("budget");
    expect(first.run).toMatchObject({ status: "failed", stopReason: "budget" });
    expect(first.run.error).toMatch(/monthly budget of company .* is exhausted: \d+ of 1500 tokens/);
    // One clear reason event before the one terminal, which names the budget and how to raise it.
    const reason = events.find((e) => e.type === "error" && e.code === "budget");
    expect(reason?.reason ?? (reason as { message?: string } | undefined)?.message).toMatch(
      /cadre budgets set/,
    );
    expect(events.filter((e) => e.type === "terminal")).toEqual([
      expect.objectContaining({ status: "failed", reason: expect.stringMatching(/^budget: /) }),
    ]);
    // Nothing half-written: the hires made are whole (one agent each, one activity each), no filing.
    const hires = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
    expect(hires.length).toBeGreaterThanOrEqual(1);
    expect(await store.listActivity(company.id, { type: "agent.hired" })).toHaveLength(hires.length);
    // Recorded spend never exceeds the limit, and every model call of the run is in the ledger.
    const report = await budgetReport(store, { companyId: company.id });
    expect(report.budget.used.tokens).toBeLessThanOrEqual(1500);
    expect(report.budget.used.tokens).toBe(
      first.usage.input + first.usage.output + first.usage.cacheRead + first.usage.cacheWrite,
    );
    expect(report.budget.state).toBe("exhausted");
    expect(await store.listActivity(company.id, { type: "budget.exhausted" })).toHaveLength(1);
    // The next wake is refused before anything is written, naming the budget, its use and the fix.
    const runs = (await store.listRuns({ companyId: company.id })).length;
    const refused = await wakeAgent({ store, agentId: ceo.id, seed: 7 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BudgetExhaustedError);
    expect(String(refused)).toMatch(
      /cannot wake: the monthly budget .* tokens used or reserved.*cadre budgets set --company/,
    );
    expect(await store.listRuns({ companyId: company.id })).toHaveLength(runs);
    // Raised: the next wake continues the work (more hires, then the strategy is filed).
    await setBudget(store, { companyId: company.id }, { tokens: 200_000 });
    const second = await wakeAgent({ store, agentId: ceo.id, seed: 7 });
    expect(second.terminal).toBe("done");
    expect(second.stopReason).toBeNull();
    expect((await store.listAgents(company.id)).filter((a) => !a.isCeo).length).toBeGreaterThan(hires.length);
    expect(second.modeAfter).toBe("awaiting-approval");
  });

  it("run caps end a run failed with a readable reason: model calls, then tool calls (the call past the cap never runs)", async () => {
    const { company, ceo } = await newCompany();
    await setBudget(store, { companyId: company.id }, { runModelCalls: 2 });
    const capped = await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
    expect(capped).toMatchObject({ terminal: "failed", stopReason: "run_cap" });
    expect(capped.run.error).toMatch(/cap of 2 model calls/);
    expect(await store.listModelCalls(capped.run.id)).toHaveLength(2);

    const other = await createCompany(store, { name: "Beta Labs", goal: "Make things." });
    const otherCeo = (await loadCompanyState(store, other.id)).ceo;
    await setBudget(store, { companyId: other.id }, { runToolCalls: 1 });
    const tools = await wakeAgent({ store, agentId: otherCeo.id, trigger: "start_team_building", seed: 7 });
    expect(tools).toMatchObject({ terminal: "failed", stopReason: "run_cap" });
    expect(tools.run.error).toMatch(/cap of 1 tool calls/);
    expect((await store.listAgents(other.id)).filter((a) => !a.isCeo)).toHaveLength(1);
  });

  it("prices each call at the company's price for the model that served it; a USD budget stops the run at the right call", async () => {
    const { company, ceo } = await newCompany();
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    await store.updateCompanySettings(company.id, {
      ...company.settings,
      prices: [{ model: "offline-scripted-1", since: "2020-01-01", ...price }],
    });
    const result = await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
    const calls = await store.listModelCalls(result.run.id);
    expect(calls.length).toBeGreaterThan(2);
    for (const c of calls) {
      expect(c.servedModel).toBe("offline-scripted-1");
      expect(c.costUsd).toBeCloseTo(usageCost(c.usage, price), 12);
    }
    const spent = calls.reduce((s, c) => s + (c.costUsd as number), 0);
    expect((await budgetReport(store, { companyId: company.id })).budget.used.usd).toBeCloseTo(spent, 10);

    // A budget with room for about two of these calls stops the next run after them.
    const other = await createCompany(store, { name: "Gamma", goal: "Sell robots." });
    const otherCeo = (await loadCompanyState(store, other.id)).ceo;
    await store.updateCompanySettings(other.id, {
      ...other.settings,
      prices: [{ model: "offline-scripted-1", since: "2020-01-01", ...price }],
    });
    const limit = (calls[0]?.costUsd ?? 0) + (calls[1]?.costUsd ?? 0) + 0.0045;
    await setBudget(store, { companyId: other.id }, { usd: limit });
    const stopped = await wakeAgent({ store, agentId: otherCeo.id, trigger: "start_team_building", seed: 7 });
    expect(stopped).toMatchObject({ terminal: "failed", stopReason: "budget" });
    const made = await store.listModelCalls(stopped.run.id);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(made.length).toBeLessThan(calls.length);
    expect(made.reduce((s, c) => s + (c.costUsd as number), 0)).toBeLessThanOrEqual(limit);
  });

  it("two concurrent wakes against room for exactly one more model call: one call happens, the other run ends failed/budget", async () => {
    const { company, ceo } = await newCompany();
    await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
    const [strategy] = await store.listApprovals(company.id);
    await decideApproval(store, strategy!.id, "approve", null);
    const members = (await store.listAgents(company.id)).filter((a) => !a.isCeo).slice(0, 2);
    const used = (await budgetReport(store, { companyId: company.id })).budget.used.tokens;
    // A member's first call reserves its input (~1,500 tokens with its workspace's file tools) and
    // at least 256 output tokens — ~1,760 — and uses ~1,250; its second call (after list_my_tasks)
    // needs ~1,770 again. 2,300 tokens of room fit one such call, neither two at once nor a second
    // one after the first settled.
    await setBudget(store, { companyId: company.id }, { tokens: used + 2_300 });
    const results = await Promise.all(members.map((m) => wakeAgent({ store, agentId: m.id, seed: 3 })));
    const calls = await Promise.all(results.map((r) => store.listModelCalls(r.run.id)));
    // (Not held: the winner may make a second call in the room its first call's actual usage left;
    // budget-concurrency.test.ts in the CLI holds the first call, for exactly one.)
    expect(calls.map((c) => c.length).filter((n) => n === 0)).toHaveLength(1);
    const loser = results.find((_, i) => calls[i]!.length === 0)!;
    expect(loser).toMatchObject({ terminal: "failed", stopReason: "budget" });
    expect((await budgetReport(store, { companyId: company.id })).budget.used.tokens).toBeLessThanOrEqual(
      used + 2_300,
    );
  });

  it("a hard stop keeps every wake reason pending (its run's own given back); raising the budget makes them due and they are served", async () => {
    const { company, ceo } = await newCompany();
    await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
    const [strategy] = await store.listApprovals(company.id);
    await decideApproval(store, strategy!.id, "approve", null);
    // The CEO's approval_decided wake waits; the operator assigns a task to a member.
    const members = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
    expect(members.length).toBeGreaterThanOrEqual(3);
    const member = members[0]!;
    const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
    const created = await createTask(store, operator, { title: "Pilot plan", assignee: member.name });
    expect(created.ok).toBe(true);
    const taskId = (created as { value: { taskId: string } }).value.taskId;
    await store.insertWakeRequest({
      id: "wrq_other",
      companyId: company.id,
      agentId: members[1]!.id,
      trigger: "routine",
      taskId: null,
      causedBy: "operator",
      cause: "queued before the stop",
    });
    const queued = await store.listWakeRequests({ companyId: company.id, status: "pending" });
    expect(queued.map((r) => r.agentId).sort()).toEqual([ceo.id, member.id, members[1]!.id].sort());
    const used = (await budgetReport(store, { companyId: company.id })).budget.used.tokens;
    await setBudget(store, { companyId: company.id }, { tokens: used + 600 });
    const stopped = await wakeAgent({ store, agentId: member.id, seed: 3 });
    expect(stopped).toMatchObject({ terminal: "failed", stopReason: "budget" });
    expect(stopped.requests.map((r) => r.taskId)).toEqual([taskId]);

    // Nothing is lost: the stopped run's reason is pending again, and so is every other one.
    const after = await store.listWakeRequests({ companyId: company.id, status: "pending" });
    expect(after.map((r) => r.id).sort()).toEqual(queued.map((r) => r.id).sort());
    expect(after.find((r) => r.taskId === taskId)).toMatchObject({ returns: 1, runId: null });
    expect(await store.listActivity(company.id, { type: "wake.cancelled" })).toHaveLength(0);
    expect(await store.getTask(taskId)).toMatchObject({ status: "todo", checkoutRunId: null });

    // While the budget is exhausted the due-work pass starts nothing and writes nothing.
    const runs = (await store.listRuns({ companyId: company.id })).length;
    const held = await runDue({ store, maxWakes: 5, wake: (agentId) => wakeIfDue({ store, agentId }) });
    expect(held.wakes).toHaveLength(0);
    expect(held.problems.length).toBeGreaterThanOrEqual(1);
    for (const p of held.problems)
      expect(p.message).toMatch(
        /^not woken: .*cadre budgets set.*stay pending and are due again once the budget is raised$/,
      );
    expect(held.stillDue.sort()).toEqual([ceo.id, member.id, members[1]!.id].sort());
    expect(await store.listRuns({ companyId: company.id })).toHaveLength(runs);
    expect(await store.listWakeRequests({ companyId: company.id, status: "pending" })).toHaveLength(3);

    // Raised: the same reasons are due and served — the member finishes the task it was given.
    await setBudget(store, { companyId: company.id }, { tokens: 5_000_000 });
    const served = await runDue({
      store,
      untilIdle: true,
      maxWakes: 20,
      wake: (agentId) => wakeIfDue({ store, agentId, seed: 3 }),
    });
    expect(served.problems).toEqual([]);
    expect(served.stillDue).toEqual([]);
    const woken = served.wakes.map((w) => w.agentId);
    expect(woken).toEqual(expect.arrayContaining([ceo.id, member.id, members[1]!.id]));
    expect(served.wakes.find((w) => w.agentId === member.id)?.result.requests.map((r) => r.id)).toContain(
      after.find((r) => r.taskId === taskId)!.id,
    );
    // Served: the member worked its task and handed it in (done means accepted: it awaits review).
    expect(await store.getTask(taskId)).toMatchObject({ status: "in_review" });
  });
});
