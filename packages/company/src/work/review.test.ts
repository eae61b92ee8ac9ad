// Done means accepted: a task its assignee hands in waits for review; its creator
// accepts it or sends it back with reasons; rounds are bounded; a company may accept automatically.
// Each test drives the company's own operations and reads what a user sees: statuses, comments,
// wake requests.
import type { CompanySettings } from "@cadre/model";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { fileApproval } from "../approvals/file.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { hireAgent } from "../team/hire.js";
import { reviewTask } from "./review.js";
import { createTask, updateTask } from "./tasks.js";
import { waitingReviews } from "./waiting-reviews.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function operating(settings: Partial<CompanySettings> = {}) {
  const company = await createCompany(store, { name: "Acme", goal: "Robots.", settings });
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const as = (agentId: string | null) => ({
    companyId: company.id,
    agentId,
    via: "tool" as const,
    runId: null,
  });
  const hire = async (name: string) => {
    const r = await hireAgent(
      store,
      { ...as(null), via: "http" },
      {
        name,
        role: `${name} lead`,
        description: "Leads.",
        connectorId: "offline",
        model: "offline-scripted-1",
        department: "engineering",
      },
    );
    if (!r.ok || !("agentId" in r.value)) throw new Error(JSON.stringify(r));
    return r.value.agentId;
  };
  const cto = await hire("CTO");
  const cro = await hire("CRO");
  const filed = await fileApproval(store, as(ceo), {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan",
  });
  if (!filed.ok) throw new Error(filed.message);
  await decideApproval(store, filed.value.approvalId, "approve", null);
  for (const r of await store.listWakeRequests({ status: "pending" }))
    await store.settleWakeRequest(r.id, { status: "dropped", note: "test" });
  const task = await createTask(store, as(ceo), { title: "Write the plan", assignee: "CTO" });
  if (!task.ok) throw new Error(task.message);
  for (const r of await store.listWakeRequests({ status: "pending" }))
    await store.settleWakeRequest(r.id, { status: "dropped", note: "test" });
  return { company, ceo, cto, cro, as, taskId: task.value.taskId };
}

const pending = async (agentId: string) =>
  (await store.listWakeRequests({ agentId, status: "pending" })).map((r) => [r.trigger, r.taskId]);
const status = async (id: string) => (await store.getTask(id))!.status;
const handIn = (as: (id: string) => object, cto: string, taskId: string, deliverable = "The plan.") =>
  updateTask(store, as(cto) as never, { taskId, status: "done", deliverable });

describe("done means accepted", () => {
  it("a task handed in waits for review and wakes its creator; what it blocks still waits", async () => {
    const { ceo, cto, cro, as, taskId } = await operating();
    const later = await createTask(store, as(ceo), {
      title: "Sell it",
      assignee: "CRO",
      blockedBy: [taskId],
    });
    const r = await handIn(as, cto, taskId);
    expect(r).toMatchObject({ ok: true, value: { status: "in_review", wakes: ["CEO"] } });
    expect(await status(taskId)).toBe("in_review");
    expect(await pending(ceo)).toEqual([["task_in_review", taskId]]);
    expect(await pending(cro)).toEqual([]);
    const accepted = await reviewTask(store, as(ceo), { taskId, decision: "accept" });
    expect(accepted).toMatchObject({ ok: true, value: { status: "done" } });
    expect(await pending(cro)).toEqual([["task_unblocked", later.ok && later.value.taskId]]);
  });

  it("its assignee can neither accept it nor change it while it waits; nobody but its reviewer decides", async () => {
    const { cto, cro, as, taskId } = await operating();
    await handIn(as, cto, taskId);
    const own = await reviewTask(store, as(cto), { taskId, decision: "accept" });
    expect(own).toMatchObject({
      ok: false,
      fields: { taskId: expect.stringMatching(/never accepted by its own assignee/) },
    });
    const other = await reviewTask(store, as(cro), { taskId, decision: "accept" });
    expect(other).toMatchObject({ ok: false, fields: { taskId: expect.stringMatching(/reviewed by CEO/) } });
    const again = await updateTask(store, as(cto), { taskId, status: "done", deliverable: "Changed." });
    expect(again).toMatchObject({ ok: false, fields: { taskId: expect.stringMatching(/waits for review/) } });
    const direct = await updateTask(store, as(cto), { taskId, status: "in_review" as never });
    expect(direct.ok).toBe(false);
    expect(await status(taskId)).toBe("in_review");
    expect((await store.getTask(taskId))!.deliverable).toBe("The plan.");
  });

  it("a request for changes needs reasons; with them the task goes back to its assignee, who is woken and reads them", async () => {
    const { ceo, cto, as, taskId } = await operating();
    await handIn(as, cto, taskId);
    const bare = await reviewTask(store, as(ceo), { taskId, decision: "request_changes" });
    expect(bare).toMatchObject({ ok: false, fields: { reasons: expect.any(String) } });
    expect(await status(taskId)).toBe("in_review");
    const sent = await reviewTask(store, as(ceo), {
      taskId,
      decision: "request_changes",
      reasons: "Add the budget.",
    });
    expect(sent).toMatchObject({
      ok: true,
      value: { status: "in_progress", wakes: ["CTO"], changeRounds: 1 },
    });
    expect(await pending(cto)).toEqual([["task_changes_requested", taskId]]);
    expect((await store.listTaskComments(taskId)).map((c) => [c.authorAgentId, c.body])).toEqual([
      [ceo, "Add the budget."],
    ]);
    // The second hand-in is reviewed again and accepted.
    expect(await handIn(as, cto, taskId, "The plan, with the budget.")).toMatchObject({
      ok: true,
      value: { status: "in_review" },
    });
    expect(await reviewTask(store, as(ceo), { taskId, decision: "accept" })).toMatchObject({
      ok: true,
      value: { status: "done" },
    });
    expect((await store.getTask(taskId))!.deliverable).toBe("The plan, with the budget.");
  });

  it("rounds are bounded: past the company's bound the operator decides, not the CEO", async () => {
    const { company, ceo, cto, as, taskId } = await operating({ reviewRounds: 1 });
    await handIn(as, cto, taskId);
    await reviewTask(store, as(ceo), { taskId, decision: "request_changes", reasons: "More." });
    await handIn(as, cto, taskId);
    const inbox = async () => {
      const { rows, view } = await waitingReviews(store, company.id);
      return Promise.all(rows.map(view));
    };
    expect(await inbox()).toMatchObject([{ task: { id: taskId }, reviewerAgentId: ceo, escalated: false }]);
    const past = await reviewTask(store, as(ceo), {
      taskId,
      decision: "request_changes",
      reasons: "Still more.",
    });
    expect(past).toMatchObject({ ok: true, value: { status: "in_review", escalated: true } });
    expect(await status(taskId)).toBe("in_review");
    // Only the first round's request went back to the CTO: the one past the bound did not.
    expect(await pending(cto)).toEqual([["task_changes_requested", taskId]]);
    expect(await store.listActivity(company.id, { type: "task.review_escalated" })).toHaveLength(1);
    // It is now in the operator's inbox: a decision, with its rounds spent.
    expect(await inbox()).toMatchObject([
      {
        task: { id: taskId },
        reviewerAgentId: null,
        reviewer: "the operator",
        escalated: true,
        changeRounds: 1,
        bound: 1,
      },
    ]);
    const ceoAgain = await reviewTask(store, as(ceo), { taskId, decision: "accept" });
    expect(ceoAgain).toMatchObject({ ok: false, fields: { taskId: expect.stringMatching(/the operator/) } });
    const byOperator = await reviewTask(store, as(null), { taskId, decision: "accept" });
    expect(byOperator).toMatchObject({ ok: true, value: { status: "done" } });
    // The CEO that created it is told it is done.
    expect(await pending(ceo)).toContainEqual(["task_done", taskId]);
  });

  it("a task that is not handed in is not reviewed", async () => {
    const { ceo, as, taskId } = await operating();
    const r = await reviewTask(store, as(ceo), { taskId, decision: "accept" });
    expect(r).toMatchObject({
      ok: false,
      fields: { taskId: expect.stringMatching(/only a task handed in/) },
    });
    expect(await status(taskId)).toBe("todo");
  });

  it("with automatic acceptance a task handed in is done at once", async () => {
    const { ceo, cto, as, taskId } = await operating({ acceptance: "automatic" });
    expect(await handIn(as, cto, taskId)).toMatchObject({ ok: true, value: { status: "done" } });
    expect(await pending(ceo)).toEqual([["task_done", taskId]]);
  });
});
