// Spend against a budget as the dashboard states it: what was spent in the budget's
// period, the limit, how much of it is used and the state in words — ok, warning (a threshold
// crossed, or calls at an unknown price under a USD limit), exhausted (new wakes are refused, and
// how to raise it) or none. A cost with no known price is "unknown", never $0.
import type { BudgetUse } from "../api/types.js";
import { formatCost, formatDate, formatPercent, formatTokens } from "./format.js";

export type BudgetTone = "ok" | "warn" | "danger" | "muted";

export interface BudgetLine {
  /** USD and tokens spent in the period. */
  spent: string;
  /** The limit(s) and the period, or that there is none. */
  limit: string;
  /**
   * The larger of the USD and token fractions used (0..1, may exceed 1); null without a limit, or
   * when the only limit is in USD and no call had a known price (the share is then unknown).
   */
  used: number | null;
  /** True when calls at an unknown price leave the USD share a lower bound ("at least"). */
  atLeast: boolean;
  state: BudgetUse["state"];
  /** The state's badge text. */
  badge: string;
  /** What the state means for the operator. */
  detail: string;
  tone: BudgetTone;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function spentUsd(b: BudgetUse): string {
  const { calls, unpricedCalls, usd } = b.used;
  if (calls > 0 && unpricedCalls === calls) return "unknown";
  const priced = formatCost(usd);
  return unpricedCalls > 0 ? `${priced} + unknown` : priced;
}

function period(b: BudgetUse): string {
  if (b.period === "total") return "in total";
  return b.periodStart ? `per month (since ${formatDate(b.periodStart)})` : "per month";
}

/** The `cadre budgets set` target of a budget, for the way to raise it. */
function target(b: BudgetUse): string {
  return b.agentId ? `--agent ${b.agentId}` : `--company ${b.companyId}`;
}

/** The limit to raise: the one used the most, tokens on a tie (they are always counted). */
export function bindingLimit(b: BudgetUse): "tokens" | "usd" {
  if (b.limitTokens === null) return b.limitUsd === null ? "tokens" : "usd";
  if (b.limitUsd === null) return "tokens";
  const usd = b.limitUsd === 0 ? 1 : b.used.usd / b.limitUsd;
  return b.used.tokens / b.limitTokens >= usd ? "tokens" : "usd";
}

export function budgetLine(b: BudgetUse): BudgetLine {
  const limits = [
    ...(b.limitUsd !== null ? [formatCost(b.limitUsd)] : []),
    ...(b.limitTokens !== null ? [`${formatTokens(b.limitTokens)} tokens`] : []),
  ];
  const allUnpriced = b.used.calls > 0 && b.used.unpricedCalls === b.used.calls;
  const usdFraction =
    b.limitUsd === null || allUnpriced ? [] : b.limitUsd === 0 ? [1] : [b.used.usd / b.limitUsd];
  const tokenFraction = b.limitTokens ? [b.used.tokens / b.limitTokens] : [];
  const fractions = [...usdFraction, ...tokenFraction];
  const used = fractions.length > 0 ? Math.max(...fractions) : null;
  const atLeast =
    b.used.unpricedCalls > 0 && usdFraction.length > 0 && (tokenFraction[0] ?? 0) < (usdFraction[0] ?? 0);
  const spent = `${spentUsd(b)} · ${formatTokens(b.used.tokens)} tokens in ${plural(b.used.calls, "call")}`;
  const limit = limits.length > 0 ? `${limits.join(" and ")} ${period(b)}` : "no limit";
  const unpriced = b.used.unpricedCalls;
  const unknownPrice =
    unpriced > 0 ? `${plural(unpriced, "call")} at an unknown price, not counted in USD` : undefined;
  switch (b.state) {
    case "none":
      return {
        spent,
        limit,
        used,
        atLeast,
        state: b.state,
        badge: "no budget",
        detail:
          b.scope === "agent"
            ? "No budget of its own: the company's budget applies."
            : "No budget: an explicit choice (cadre budgets set --none).",
        tone: "muted",
      };
    case "exhausted":
      return {
        spent,
        limit,
        used,
        atLeast,
        state: b.state,
        badge: "exhausted",
        // The company's limit is raised in the form shown with this line (the Usage tab's, the
        // overview's notice); an agent's own budget from a terminal.
        detail: `Exhausted: new wakes are refused and a running run stops at its next model call. ${
          b.scope === "agent"
            ? `Raise it with npx cadre budgets set ${target(b)} ${bindingLimit(b) === "tokens" ? "--tokens N" : "--usd X"}.`
            : `Raise the limit below (or with npx cadre budgets set ${target(b)} ${bindingLimit(b) === "tokens" ? "--tokens N" : "--usd X"}).`
        }`,
        tone: "danger",
      };
    case "warning": {
      const reasons = [
        ...(used !== null && used >= b.warnAt
          ? [
              `${formatPercent(used, 0)} used, at or over the warning threshold of ${formatPercent(b.warnAt, 0)}`,
            ]
          : []),
        ...(unknownPrice && b.limitUsd !== null ? [`${unknownPrice}: the USD limit cannot be trusted`] : []),
      ];
      return {
        spent,
        limit,
        used,
        atLeast,
        state: b.state,
        badge:
          unknownPrice && b.limitUsd !== null && !(used !== null && used >= b.warnAt)
            ? "unknown price"
            : "warning",
        detail: `Warning: ${reasons.join("; ")}.`,
        tone: "warn",
      };
    }
    default:
      return {
        spent,
        limit,
        used,
        atLeast,
        state: b.state,
        badge: "ok",
        detail: `${formatPercent(used ?? 0, 0)} used; warns at ${formatPercent(b.warnAt, 0)}.${unknownPrice ? ` ${unknownPrice}.` : ""}`,
        tone: "ok",
      };
  }
}
