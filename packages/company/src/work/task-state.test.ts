// A task operation reads the company's summary and the agents it names, never the whole team:
// assigning by name or id, the names in its answer and its refusals hold in a company of any size.
import { openStore, type Store, type StoreQueries } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { createCompany } from "../companies.js";
import { loadCompanySummary } from "../state.js";
import { wakeAgent } from "../wake.js";
import { assignTask, createTask } from "./tasks.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function approvedCompany(s: Store) {
  const company = await createCompany(s, { name: "Acme Robotics", goal: "Build warehouse robots." });
  const ceo = (await loadCompanySummary(s, company.id)).ceo;
  await wakeAgent({ store: s, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
  const [strategy] = await s.listApprovals(company.id);
  await decideApproval(s, strategy!.id, "approve", "Go.");
  const leads = (await s.listAgents(company.id, { status: "active" })).filter((a) => !a.isCeo);
  return { company, leads };
}

/** The store, counting the calls of each method on it and on its transactions. */
function counting(inner: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, name, receiver) {
        const value = Reflect.get(t, name, receiver) as unknown;
        if (typeof value !== "function" || typeof name !== "string") return value;
        return (...args: unknown[]) => {
          calls.set(name, (calls.get(name) ?? 0) + 1);
          if (name === "transaction") {
            const fn = args[0] as (tx: StoreQueries) => Promise<unknown>;
            return (value as (f: typeof fn) => unknown).call(t, (tx: StoreQueries) => fn(wrap(tx)));
          }
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return { store: wrap(inner), calls };
}

describe("a task operation in a large company", () => {
  it("assigns by name and by id and names the assignee without reading the team", async () => {
    const { company, leads } = await approvedCompany(store);
    await store.transaction(async (tx) => {
      for (let i = 0; i < 40; i++)
        await tx.insertAgent({
          id: `agt_eng_${i}`,
          companyId: company.id,
          name: `Engineer ${i}`,
          role: "Engineer",
          description: "Builds things.",
          department: "engineering",
          connectorId: "offline",
          model: "offline-scripted-1",
          reportsTo: leads[0]!.id,
          isCeo: false,
          status: "active",
          via: "http",
        });
    });
    const { store: counted, calls } = counting(store);
    const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
    const created = await createTask(counted, operator, {
      title: "Wire the sensors",
      assignee: "engineer 7",
    });
    expect(created.ok && created.value.assignee).toBe("Engineer 7");
    if (!created.ok) throw new Error(created.message);
    const moved = await assignTask(counted, operator, {
      taskId: created.value.taskId,
      assignee: "agt_eng_31",
    });
    expect(moved.ok && moved.value).toMatchObject({ assignee: "Engineer 31", wakes: ["Engineer 31"] });
    expect(calls.get("getCompanySnapshot") ?? 0).toBe(0);
    expect(calls.get("listAgents") ?? 0).toBe(0);
    expect(calls.get("listTeam") ?? 0).toBe(0);

    const refused = await createTask(counted, operator, { title: "Nobody's", assignee: "Engineer 99" });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    // The refusal names the first of the team and counts the others.
    expect(refused.message).toMatch(
      /"Engineer 99" is not an active member of this company; members: .*Engineer 0/,
    );
    expect(refused.message).toMatch(/ and \d+ more/);
    expect(await store.listTasks(company.id, { assigneeAgentId: "agt_eng_99" })).toEqual([]);
  });
});
