// Companies of a given size for the scale benchmark, built through the company operations where a
// rule applies (hires of the leads, the approved strategy) and straight into the store in one
// transaction for the bulk (members, tasks, ledger rows), so that building 100,000 rows takes
// seconds. Every member runs on the offline connector: wakes need no network.
import {
  createCompany,
  createTask,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
} from "@cadre/company";
import type { Store } from "@cadre/store";

const operator = (companyId: string) => ({ companyId, agentId: null, via: "http" as const, runId: null });

export interface ScaleCompany {
  companyId: string;
  ceo: string;
  lead: string;
  members: string[];
}

/**
 * An operating company of `agents` agents: CEO, two leads, the rest reporting to the first lead.
 * Beyond the largest team the settings allow (200 active agents) the members are still written
 * straight to the store: the point is what an operation costs at that size.
 */
export async function operatingCompany(store: Store, agents: number, tag: string): Promise<ScaleCompany> {
  const company = await createCompany(store, {
    name: `Scale ${tag}`,
    goal: "Build warehouse robots.",
    settings: { maxTeamSize: Math.min(200, agents + 10) },
  });
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const leads: string[] = [];
  for (const [name, department] of [
    ["CTO", "engineering"],
    ["CRO", "sales"],
  ] as const) {
    const r = await hireAgent(store, operator(company.id), {
      name,
      role: `${name} lead`,
      description: "Leads a team.",
      connectorId: "offline",
      model: "offline-scripted-1",
      department,
    });
    if (!r.ok || !("agentId" in r.value)) throw new Error(`scale bench: hire failed: ${JSON.stringify(r)}`);
    leads.push(r.value.agentId);
  }
  const members: string[] = [];
  await store.transaction(async (tx) => {
    for (let i = 0; i < agents - 3; i++) {
      const id = `agt_${tag}_${i}`;
      await tx.insertAgent({
        id,
        companyId: company.id,
        name: `Engineer ${i}`,
        role: "Engineer",
        description: "Builds the robots' software.",
        department: "engineering",
        connectorId: "offline",
        model: "offline-scripted-1",
        reportsTo: leads[0]!,
        isCeo: false,
        status: "active",
        via: "http",
      });
      members.push(id);
    }
  });
  const asCeo = { companyId: company.id, agentId: ceo, via: "tool" as const, runId: null };
  const filed = await fileApproval(store, asCeo, {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan\n- ship",
  });
  if (!filed.ok) throw new Error(filed.message);
  await decideApproval(store, filed.value.approvalId, "approve", null);
  for (const r of await store.listWakeRequests({ agentId: ceo, status: "pending" }))
    await store.settleWakeRequest(r.id, { status: "dropped", note: "scale bench" });
  return { companyId: company.id, ceo, lead: leads[0]!, members: members.length > 0 ? members : leads };
}

/** `count` tasks assigned to the lead, inserted in one transaction. */
export async function bulkTasks(store: Store, c: ScaleCompany, count: number): Promise<void> {
  await store.transaction(async (tx) => {
    for (let i = 0; i < count; i++)
      await tx.insertTask({
        id: `tsk_bulk_${c.companyId}_${i}`,
        companyId: c.companyId,
        title: `Task ${i}`,
        description: "A task of the backlog.",
        status: "todo",
        assigneeAgentId: c.lead,
        creatorAgentId: c.ceo,
        parentTaskId: null,
        strategyId: null,
        deliverable: null,
        blockers: [],
        via: "tool",
      });
  });
}

/** `count` settled model calls of the lead, 100 per run, inserted in one transaction. */
export async function bulkModelCalls(store: Store, c: ScaleCompany, count: number): Promise<void> {
  await store.transaction(async (tx) => {
    for (let r = 0; r * 100 < count; r++) {
      const runId = `run_bulk_${c.companyId}_${r}`;
      await tx.insertRun({
        id: runId,
        companyId: c.companyId,
        agentId: c.lead,
        trigger: "routine",
        mode: "operating",
        profile: "semantic",
        cue: "bench",
      });
      for (let i = 0; i < 100 && r * 100 + i < count; i++) {
        const id = `mc_${runId}_${i}`;
        await tx.reserveModelCall({
          id,
          companyId: c.companyId,
          agentId: c.lead,
          runId,
          model: "offline-scripted-1",
          reservedTokens: 1000,
          reservedUsd: 0.00001,
        });
        await tx.settleModelCall(id, {
          servedModel: "offline-scripted-1",
          usage: { input: 800, output: 100, cacheRead: 0, cacheWrite: 0 },
          costUsd: 0.00001,
        });
      }
      await tx.finishRun(runId, {
        status: "done",
        usage: { input: 80_000, output: 10_000, cacheRead: 0, cacheWrite: 0 },
        error: null,
      });
    }
  });
}

/** A task for `agentId` from the CEO, so that its wake has work (not timed). */
export async function assign(store: Store, c: ScaleCompany, agentId: string, i: number): Promise<void> {
  const r = await createTask(store, operator(c.companyId), {
    title: `Scale task ${i}`,
    description: "Write the design note.",
    assignee: agentId,
  });
  if (!r.ok) throw new Error(`scale bench: task failed: ${r.message}`);
}
