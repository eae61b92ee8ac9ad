import { describe, expect, it } from "vitest";
import type { CompanyGlance } from "@cadre/server";
import { glanceFacts, localMidnight, spendToday } from "./company-glance.js";
import { formatCost } from "./format.js";

const glance = (over: Partial<CompanyGlance> = {}, spent: Partial<CompanyGlance["spentToday"]> = {}) => ({
  ceoMode: "operating" as const,
  pendingDecisions: 0,
  runningRuns: 0,
  ...over,
  spentToday: { since: "2026-01-01T00:00:00.000Z", usd: 0, tokens: 0, unpricedCalls: 0, ...spent },
});

describe("the companies list at a glance", () => {
  it("counts from the reader's midnight", () => {
    const at = new Date(2026, 4, 6, 17, 30);
    const since = new Date(localMidnight(at));
    expect([since.getFullYear(), since.getMonth(), since.getDate(), since.getHours()]).toEqual([
      2026, 4, 6, 0,
    ]);
  });

  it("never shows a spend with unpriced calls as a plain figure", () => {
    expect(spendToday(glance({}, { tokens: 0 }))).toBe("nothing spent today");
    expect(spendToday(glance({}, { tokens: 500, usd: 1.5 }))).toBe(`${formatCost(1.5)} today (500 tokens)`);
    expect(spendToday(glance({}, { tokens: 500, usd: 1.5, unpricedCalls: 1 }))).toMatch(/^at least /);
    expect(spendToday(glance({}, { tokens: 500, usd: 0, unpricedCalls: 2 }))).toMatch(/^unknown/);
  });

  it("puts what waits for the operator first", () => {
    const facts = glanceFacts(glance({ pendingDecisions: 2, runningRuns: 1 }));
    expect(facts.map((f) => [f.text, f.tone])).toEqual([
      ["2 decisions waiting for you", "warn"],
      ["1 run in progress", "info"],
      ["nothing spent today", "muted"],
    ]);
    expect(glanceFacts(glance()).map((f) => f.tone)).toEqual(["muted", "muted", "muted"]);
  });
});
