// Before a wake for due work (runDue's pass): one read of the agent and, when it has reasons left,
// one of the budgets that apply. An agent no longer active has its pending requests dropped
// (nobody will work them); requests whose reason went away are dropped (work/due.ts); an exhausted
// budget holds the wake, writing nothing — its reasons stay pending (OP-5) and are due again once
// the budget is raised or a new period starts.
import type { AgentRow, Store } from "@cadre/store";
import { type AppliedBudgets, appliedBudgets } from "../budgets/policy.js";
import { type BudgetRefusal, budgetRefusal } from "../budgets/run-budget.js";
import { dropStaleRequests } from "./due.js";

export type DueCheck =
  | { due: false }
  /** `reasons` due requests; `held` when a budget with no room holds them. */
  | { due: true; reasons: number; held: BudgetRefusal | undefined; checked: DueChecked };

/** What the check read, handed to the wake's plan so that it does not read (or check) it again. */
export interface DueChecked {
  agent: AgentRow;
  budgets: AppliedBudgets;
}

export async function checkDue(store: Store, agentId: string): Promise<DueCheck> {
  const agent = await store.getAgent(agentId);
  if (agent?.status !== "active") {
    await store.transaction(async (tx) => {
      for (const r of await tx.listWakeRequests({ agentId, status: "pending" }))
        await tx.settleWakeRequest(r.id, { status: "dropped", note: "the agent is no longer active" });
    });
    return { due: false };
  }
  const reasons = await dropStaleRequests(store, agentId);
  if (reasons === 0) return { due: false };
  const budgets = await appliedBudgets(store, agent);
  const held = await budgetRefusal(store, agent, budgets);
  return { due: true, reasons, held, checked: { agent, budgets } };
}
