import { describe, expect, it } from "vitest";
import type { BudgetUse } from "../api/types.js";
import { budgetLine } from "./budget-view.js";
import { formatDate } from "./format.js";

const use = (
  over: Partial<Omit<BudgetUse, "used">> & { used?: Partial<BudgetUse["used"]> } = {},
): BudgetUse => ({
  scope: "company",
  companyId: "co_1",
  agentId: null,
  limitUsd: 10,
  limitTokens: null,
  period: "month",
  periodStart: "2026-12-01T00:00:00.000Z",
  warnAt: 0.8,
  stored: true,
  state: "ok",
  ...over,
  used: { tokens: 1200, usd: 2.5, unpricedCalls: 0, calls: 3, ...over.used },
});

describe("spend against a budget, in words", () => {
  it("ok: spent, limit with its period, the share used", () => {
    expect(budgetLine(use())).toEqual({
      spent: "$2.50 · 1,200 tokens in 3 calls",
      limit: `$10.00 per month (since ${formatDate("2026-12-01T00:00:00.000Z")})`,
      used: 0.25,
      atLeast: false,
      state: "ok",
      badge: "ok",
      detail: "25% used; warns at 80%.",
      tone: "ok",
    });
  });

  it("warning past the threshold names both figures; the larger of USD and tokens counts", () => {
    const line = budgetLine(
      use({ state: "warning", limitTokens: 1300, used: { usd: 1 }, period: "total", periodStart: null }),
    );
    expect(line.used).toBeCloseTo(1200 / 1300);
    expect(line.limit).toBe("$10.00 and 1,300 tokens in total");
    expect(line).toMatchObject({ badge: "warning", tone: "warn" });
    expect(line.detail).toBe("Warning: 92% used, at or over the warning threshold of 80%.");
  });

  it("calls at an unknown price: never $0, and a USD limit says it cannot be trusted", () => {
    const all = budgetLine(use({ state: "warning", used: { usd: 0, unpricedCalls: 3 } }));
    expect(all.spent).toBe("unknown · 1,200 tokens in 3 calls");
    // No known price at all: the share of the USD limit is unknown, not 0%.
    expect(all.used).toBeNull();
    expect(all).toMatchObject({ badge: "unknown price", tone: "warn" });
    expect(all.detail).toBe(
      "Warning: 3 calls at an unknown price, not counted in USD: the USD limit cannot be trusted.",
    );
    const some = budgetLine(use({ state: "warning", used: { unpricedCalls: 1 } }));
    expect(some.spent).toBe("$2.50 + unknown · 1,200 tokens in 3 calls");
    // Some priced: the share is a lower bound.
    expect(some).toMatchObject({ used: 0.25, atLeast: true });
    // Under a token limit only, unknown prices do not matter to the limit.
    const tokensOnly = budgetLine(use({ limitUsd: null, limitTokens: 10_000, used: { unpricedCalls: 3 } }));
    expect(tokensOnly).toMatchObject({ badge: "ok", spent: "unknown · 1,200 tokens in 3 calls" });
  });

  it("exhausted says what it stops and how to raise it, for the company or the agent", () => {
    const company = budgetLine(use({ state: "exhausted", used: { usd: 10 } }));
    expect(company).toMatchObject({ badge: "exhausted", tone: "danger", used: 1 });
    expect(company.detail).toContain("new wakes are refused");
    expect(company.detail).toContain("npx cadre budgets set --company co_1 --usd X");
    const agent = budgetLine(use({ scope: "agent", agentId: "ag_7", state: "exhausted" }));
    expect(agent.detail).toContain("npx cadre budgets set --agent ag_7");
  });

  it("names the limit that binds: tokens when tokens are used the most", () => {
    const tokens = budgetLine(use({ state: "exhausted", limitTokens: 1000, used: { usd: 1, tokens: 1000 } }));
    expect(tokens.detail).toContain("--tokens N");
    expect(tokens.detail).not.toContain("--usd");
  });

  it("none: an agent falls under the company's budget; a company chose none explicitly", () => {
    const agent = budgetLine(
      use({ scope: "agent", agentId: "ag_7", limitUsd: null, stored: false, state: "none" }),
    );
    expect(agent).toMatchObject({ limit: "no limit", used: null, badge: "no budget", tone: "muted" });
    expect(agent.detail).toBe("No budget of its own: the company's budget applies.");
    expect(budgetLine(use({ limitUsd: null, state: "none" })).detail).toMatch(/explicit choice/);
  });
});
