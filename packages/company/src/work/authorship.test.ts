// Authorship is recorded with what was written and shown as written. A deliverable the
// CTO handed in and the CEO then reassigned to the CRO reaches the CRO's briefing as the CTO's; the
// operator's closing deliverable is the operator's, not the assignee's; an assignee cannot cancel
// its own task through close (nobody would be told), as update_task cannot.
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { fileApproval } from "../approvals/file.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { hireAgent } from "../team/hire.js";
import { workBriefing } from "./briefing.js";
import { assignTask, closeTask, createTask, updateTask } from "./tasks.js";
import { taskView } from "./task-view.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => store.close());

async function operating() {
  const company = await createCompany(store, { name: "Acme", goal: "Robots." });
  const ceo = (await loadCompanyState(store, company.id)).ceo;
  const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
  const hire = async (name: string, role: string) => {
    const r = await hireAgent(store, op, {
      name,
      role,
      description: "Leads.",
      connectorId: "offline",
      model: "offline-scripted-1",
    });
    if (!r.ok || !("agentId" in r.value)) throw new Error(JSON.stringify(r));
    return r.value.agentId;
  };
  const cto = await hire("CTO", "VP Engineering");
  const cro = await hire("CRO", "VP Sales");
  const asCeo = { ...op, agentId: ceo.id, via: "tool" as const };
  const filed = await fileApproval(store, asCeo, {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan",
  });
  if (!filed.ok) throw new Error(filed.message);
  await decideApproval(store, filed.value.approvalId, "approve", null);
  const as = (agentId: string) => ({ ...op, agentId, via: "tool" as const });
  return { company, ceo, cto, cro, op, asCeo, as };
}

const briefingOf = async (agentId: string, taskId: string) => {
  const state = await loadCompanyState(store, (await store.getAgent(agentId))!.companyId);
  return workBriefing(store, {
    agent: (await store.getAgent(agentId))!,
    agents: state.activeAgents,
    strategy: null,
    taken: [{ trigger: "task_assigned", taskId }],
  });
};

describe("authorship, as written", () => {
  it("a reassigned task's deliverable stays its writer's; the operator's closing one is the operator's", async () => {
    const { cto, cro, op, asCeo, as } = await operating();
    const created = await createTask(store, asCeo, { title: "Pilot plan", assignee: "CTO" });
    if (!created.ok) throw new Error(created.message);
    const taskId = created.value.taskId;
    const handed = await updateTask(store, as(cto), {
      taskId,
      status: "in_progress",
      deliverable: "Draft by eng.",
    });
    expect(handed.ok).toBe(true);
    expect((await assignTask(store, asCeo, { taskId, assignee: "CRO" })).ok).toBe(true);

    const briefing = await briefingOf(cro, taskId);
    expect(briefing).toContain("Deliverable (by CTO (VP Engineering)):\n> Draft by eng.");
    expect(briefing).not.toContain("Deliverable (by CRO");
    expect(taskView((await store.getTask(taskId))!)).toMatchObject({
      assigneeAgentId: cro,
      deliverableBy: cto,
    });

    const closed = await closeTask(store, op, {
      taskId,
      status: "done",
      deliverable: "Final, by the operator.",
    });
    expect(closed.ok).toBe(true);
    expect(taskView((await store.getTask(taskId))!)).toMatchObject({ deliverableBy: "operator" });
    const ceoBriefing = await briefingOf((await loadCompanyState(store, op.companyId)).ceo.id, taskId);
    expect(ceoBriefing).toContain("Deliverable (by the operator):\n> Final, by the operator.");
  });

  it("an assignee cannot cancel its own task through close; nothing is written", async () => {
    const { cto, asCeo, as } = await operating();
    const created = await createTask(store, asCeo, { title: "Pilot plan", assignee: "CTO" });
    if (!created.ok) throw new Error(created.message);
    const refused = await closeTask(store, as(cto), { taskId: created.value.taskId, status: "cancelled" });
    expect(refused).toMatchObject({
      ok: false,
      fields: { status: expect.stringMatching(/creator or the operator/) },
    });
    expect(await store.getTask(created.value.taskId)).toMatchObject({ status: "todo", assigneeAgentId: cto });
    // Its creator may.
    expect((await closeTask(store, asCeo, { taskId: created.value.taskId, status: "cancelled" })).ok).toBe(
      true,
    );
  });
});
