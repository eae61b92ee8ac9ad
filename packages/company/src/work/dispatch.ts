// Due wakes, processed in code (OP-1, OP-2): which agents have work waiting, in the order it was
// asked for, and a loop that ticks the schedules and wakes each due agent once per pass — `cadre
// run`'s engine, and the one `cadre serve` runs in the background. Waking only for due work
// (wakeIfDue) means a request whose reason went away costs nothing, and nothing is started twice.
import { errorMessage } from "@cadre/core";
import type { Store } from "@cadre/store";
import type { WakeResult } from "../wake.js";
import { type BudgetRefusal, budgetRefusal } from "../budgets/run-budget.js";
import { type ScheduleTick, tickSchedules } from "./schedules.js";
import { checkDue, type DueChecked } from "./due-check.js";

/** Agents with pending wake requests, the one waiting longest first. */
export async function dueAgents(store: Store, companyId?: string): Promise<string[]> {
  const pending = await store.listWakeRequests({ status: "pending", ...(companyId ? { companyId } : {}) });
  return [...new Set(pending.map((r) => r.agentId))];
}

/** Drops the pending requests of agents that are no longer active (nobody will work them). */
export async function dropInactive(store: Store, agentId: string): Promise<boolean> {
  const agent = await store.getAgent(agentId);
  if (agent?.status === "active") return false;
  await store.transaction(async (tx) => {
    for (const r of await tx.listWakeRequests({ agentId, status: "pending" }))
      await tx.settleWakeRequest(r.id, { status: "dropped", note: "the agent is no longer active" });
  });
  return true;
}

/**
 * Before a due wake is queued or started: a budget of the agent with no room left holds it. Nothing
 * is written — its reasons stay pending (OP-5) and are due again once the budget is raised or a new
 * period starts. Returns the refusal, or undefined when there is room.
 */
export async function budgetHold(store: Store, agentId: string): Promise<BudgetRefusal | undefined> {
  const agent = await store.getAgent(agentId);
  if (!agent) return undefined;
  return budgetRefusal(store, agent);
}

/** What a due wake held by a budget says (its reasons wait for the budget). */
export function heldByBudget(refusal: BudgetRefusal, reasons: number): string {
  return `not woken: ${refusal.message}; its ${reasons} due reason(s) stay pending and are due again once the budget is raised`;
}

export interface DueWake {
  agentId: string;
  result: WakeResult;
}

export interface DueProblem {
  agentId: string;
  message: string;
}

export interface DueReport {
  wakes: DueWake[];
  ticks: ScheduleTick[];
  /** Agents that could not be woken (busy elsewhere, refused); their requests stay pending. */
  problems: DueProblem[];
  /** Agents still due when it stopped (the wake limit, a problem). */
  stillDue: string[];
}

export interface RunDueOptions {
  store: Store;
  companyId?: string;
  /** Repeat passes until a pass finds nothing due (default: one pass, over what is due now). */
  untilIdle?: boolean;
  /** Stop after this many wakes (what is still due is reported). */
  maxWakes: number;
  now?: () => Date;
  /**
   * Wakes one agent for its due work (wakeIfDue with the caller's options); `checked` is what the
   * pass read about the agent just now (WakeOptions.checked: the plan does not read it again).
   */
  wake: (agentId: string, checked: DueChecked) => Promise<WakeResult | undefined>;
  onTick?: (tick: ScheduleTick) => void;
  onWake?: (wake: DueWake) => void;
  onProblem?: (problem: DueProblem) => void;
  signal?: AbortSignal;
}

export async function runDue(options: RunDueOptions): Promise<DueReport> {
  const { store } = options;
  const report: DueReport = { wakes: [], ticks: [], problems: [], stillDue: [] };
  const failed = new Set<string>();
  for (;;) {
    const ticks = await tickSchedules(store, (options.now ?? (() => new Date()))(), options.companyId);
    for (const t of ticks) options.onTick?.(t);
    report.ticks.push(...ticks);
    let woke = 0;
    for (const agentId of await dueAgents(store, options.companyId)) {
      if (options.signal?.aborted || failed.has(agentId)) continue;
      const check = await checkDue(store, agentId);
      if (!check.due) continue;
      if (check.held) {
        failed.add(agentId);
        const problem = { agentId, message: heldByBudget(check.held, check.reasons) };
        report.problems.push(problem);
        options.onProblem?.(problem);
        continue;
      }
      if (report.wakes.length >= options.maxWakes) break;
      try {
        const result = await options.wake(agentId, check.checked);
        if (!result) continue;
        const wake = { agentId, result };
        report.wakes.push(wake);
        options.onWake?.(wake);
        woke++;
      } catch (error) {
        failed.add(agentId);
        const problem = { agentId, message: errorMessage(error) };
        report.problems.push(problem);
        options.onProblem?.(problem);
      }
    }
    if (
      !options.untilIdle ||
      woke === 0 ||
      options.signal?.aborted ||
      report.wakes.length >= options.maxWakes
    )
      break;
  }
  report.stillDue = await dueAgents(store, options.companyId);
  return report;
}
