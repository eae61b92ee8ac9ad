// Budgets as code decides them (OP-3): the defaults a new company gets, the budgets that
// apply to an agent's run, their periods, what has been used and what a refusal says. A company
// with no stored budget row has the defaults: "no budget" is an explicit row with no limit.
import { ConflictStateError } from "@cadre/core";
import type { AgentRow, BudgetRow, RunCaps, Spend, StoreQueries } from "@cadre/store";
import type { BudgetPeriod } from "@cadre/model";

/** A new company's budget: a modest monthly USD limit, shown at creation, changeable. */
export const DEFAULT_COMPANY_BUDGET = Object.freeze({
  limitUsd: 10,
  limitTokens: null,
  period: "month" as BudgetPeriod,
  warnAt: 0.8,
});

/** Every run cap, each a number or null (no cap). */
export type AppliedRunCaps = Required<RunCaps>;

/** What one run may do unless the company says otherwise (never a silent loop). */
export const DEFAULT_RUN_CAPS: Readonly<AppliedRunCaps> = Object.freeze({
  maxModelCalls: 100,
  maxToolCalls: 200,
  maxTokens: 2_000_000,
  maxUsd: 2,
  // Half an hour: far above a healthy wake (minutes), low enough that a stuck one is freed the same day.
  maxWallSeconds: 1_800,
});

/** A budget that applies, with where it came from. */
export interface EffectiveBudget {
  scope: "company" | "agent";
  companyId: string;
  agentId: string | null;
  limitUsd: number | null;
  limitTokens: number | null;
  period: BudgetPeriod;
  warnAt: number;
  /** False when no row was stored and the defaults apply. */
  stored: boolean;
  /** When the stored row last changed, when it was read with it (a stop before that no longer holds). */
  updatedAt?: string;
}

export interface AppliedBudgets {
  company: EffectiveBudget;
  agent: EffectiveBudget | undefined;
  runCaps: AppliedRunCaps;
}

/** A company's stored caps over the defaults: a cap stored before it existed takes its default. */
export function runCapsOf(stored: RunCaps | null | undefined): AppliedRunCaps {
  const caps = { ...DEFAULT_RUN_CAPS, ...(stored ?? {}) };
  return {
    ...caps,
    maxWallSeconds: caps.maxWallSeconds === undefined ? DEFAULT_RUN_CAPS.maxWallSeconds : caps.maxWallSeconds,
  };
}

export function companyBudgetOf(companyId: string, row: BudgetRow | undefined): EffectiveBudget {
  return row
    ? { scope: "company", ...pick(row), stored: true }
    : { scope: "company", companyId, agentId: null, ...DEFAULT_COMPANY_BUDGET, stored: false };
}

function pick(row: BudgetRow) {
  return {
    companyId: row.companyId,
    agentId: row.agentId,
    limitUsd: row.limitUsd,
    limitTokens: row.limitTokens,
    period: row.period,
    warnAt: row.warnAt,
    updatedAt: row.updatedAt,
  };
}

export async function appliedBudgets(
  q: StoreQueries,
  agent: Pick<AgentRow, "id" | "companyId">,
): Promise<AppliedBudgets> {
  const [own, mine] = await Promise.all([
    q.getBudget(agent.companyId, null),
    q.getBudget(agent.companyId, agent.id),
  ]);
  return {
    company: companyBudgetOf(agent.companyId, own),
    agent: mine ? { scope: "agent", ...pick(mine), stored: true } : undefined,
    runCaps: runCapsOf(own?.runCaps),
  };
}

/** Start of the budget's current period (UTC calendar month), or undefined for `total`. */
export function periodStart(period: BudgetPeriod, now = new Date()): string | undefined {
  if (period === "total") return undefined;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

export function spendOfBudget(q: StoreQueries, b: EffectiveBudget): Promise<Spend> {
  const since = periodStart(b.period);
  return q.spendOf({
    companyId: b.companyId,
    ...(b.agentId ? { agentId: b.agentId } : {}),
    ...(since ? { since } : {}),
  });
}

export function budgetName(b: Pick<EffectiveBudget, "scope" | "agentId" | "companyId" | "period">): string {
  const whose = b.scope === "company" ? `company ${b.companyId}` : `agent ${b.agentId}`;
  return `the ${b.period === "month" ? "monthly" : "total"} budget of ${whose}`;
}

export function usd(value: number): string {
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 2)}`;
}

/** How to raise it, as a command the operator can run. */
export function raiseHint(
  b: Pick<EffectiveBudget, "scope" | "agentId" | "companyId">,
  kind: "usd" | "tokens",
): string {
  const target = b.scope === "company" ? `--company ${b.companyId}` : `--agent ${b.agentId}`;
  return `raise it with \`cadre budgets set ${target} ${kind === "usd" ? "--usd X" : "--tokens N"}\``;
}

/** A wake or a model call refused by a budget or a run cap; nothing was sent to the model. HTTP 409. */
export class BudgetExhaustedError extends ConflictStateError {
  constructor(
    message: string,
    readonly stopReason: "budget" | "run_cap",
  ) {
    super(message);
    this.name = "BudgetExhaustedError";
  }
}

/** Why `b` has no room for `need` more (tokens, USD), or undefined when it has. */
export function refusalOf(
  b: EffectiveBudget,
  spend: Spend,
  need: { tokens: number; usd: number | null },
): string | undefined {
  if (b.limitTokens !== null && spend.tokens + need.tokens > b.limitTokens)
    return `${budgetName(b)} is exhausted: ${spend.tokens} of ${b.limitTokens} tokens used or reserved, and the next model call needs up to ${need.tokens}; ${raiseHint(b, "tokens")}`;
  if (b.limitUsd !== null && need.usd !== null && spend.usd + need.usd > b.limitUsd)
    return `${budgetName(b)} is exhausted: ${usd(spend.usd)} of ${usd(b.limitUsd)} used or reserved, and the next model call needs up to ${usd(need.usd)}; ${raiseHint(b, "usd")}`;
  return undefined;
}

/** Room left under `b` (Infinity where it sets no limit). */
export function roomOf(b: EffectiveBudget, spend: Spend): { tokens: number; usd: number } {
  return {
    tokens: b.limitTokens === null ? Infinity : b.limitTokens - spend.tokens,
    usd: b.limitUsd === null ? Infinity : b.limitUsd - spend.usd,
  };
}
