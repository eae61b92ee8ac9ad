// The operating company end to end, in process, on the offline connector: approval → the CEO
// delegates the strategy's first milestone to each lead → each lead works its task → the CEO is
// woken once with the results (OP-1).
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { wakeAgent, wakeIfDue } from "../wake.js";
import { runDue } from "./dispatch.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

export async function approvedCompany(s: Store) {
  const company = await createCompany(s, {
    name: "Acme Robotics",
    goal: "Build warehouse robots and sell them to logistics companies.",
  });
  const ceo = (await loadCompanyState(s, company.id)).ceo;
  await wakeAgent({ store: s, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
  const [strategy] = await s.listApprovals(company.id);
  await decideApproval(s, strategy!.id, "approve", "Go.");
  const leads = (await s.listAgents(company.id, { status: "active" })).filter((a) => !a.isCeo);
  return { company, ceo, leads, strategy: strategy! };
}

describe("a company at work (offline)", () => {
  it("delegates, works, hands in and the CEO accepts: runs = tasks + 2, every task done with a deliverable", async () => {
    const { company, ceo, leads, strategy } = await approvedCompany(store);
    const report = await runDue({
      store,
      untilIdle: true,
      maxWakes: 50,
      wake: (agentId) => wakeIfDue({ store, agentId, seed: 3 }),
    });
    const tasks = await store.listTasks(company.id);
    expect(tasks.map((t) => t.assigneeAgentId).sort()).toEqual(leads.map((l) => l.id).sort());
    expect(tasks.every((t) => t.status === "done" && (t.deliverable ?? "").length > 0)).toBe(true);
    expect(tasks.every((t) => t.strategyId === strategy.id && t.creatorAgentId === ceo.id)).toBe(true);
    expect(tasks.every((t) => t.checkoutRunId === null)).toBe(true);
    const wakes = report.wakes.map((w) => [w.agentId === ceo.id ? "CEO" : "lead", w.result.run.trigger]);
    expect(wakes[0]).toEqual(["CEO", "approval_decided"]);
    expect(wakes.slice(1, -1)).toEqual(leads.map(() => ["lead", "task_assigned"]));
    expect(wakes.at(-1)).toEqual(["CEO", "task_in_review"]);
    expect(report.wakes.length).toBe(tasks.length + 2);
    // Each lead once per assignment; the CEO once with all the hand-ins, which it accepted.
    for (const lead of leads) expect(report.wakes.filter((w) => w.agentId === lead.id)).toHaveLength(1);
    expect(report.wakes.at(-1)!.result.requests.map((r) => r.trigger)).toEqual(
      tasks.map(() => "task_in_review"),
    );
    const reviews = (await store.listActivity(company.id, { type: "task.reviewed" })).map(
      (a) => a.data as { decision: string; by: string },
    );
    expect(reviews).toHaveLength(tasks.length);
    expect(reviews.every((r) => r.decision === "accept" && r.by === ceo.id)).toBe(true);
    expect(report.wakes.every((w) => w.result.terminal === "done")).toBe(true);
    expect(report.stillDue).toEqual([]);
    expect(await store.listWakeRequests({ status: "pending" })).toEqual([]);
  });
});
