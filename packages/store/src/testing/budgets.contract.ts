// Budgets and the spend ledger (migration 011): a budget reads back as written; a model call is
// reserved, then settled; spend counts settled calls and the reservations of running runs only;
// an unknown price stays unknown (null), never 0; and a check-then-reserve transaction lets
// concurrent reservers take the last room exactly once.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { NewBudget, NewModelCall } from "../types.js";
import { agent, run, seed, setClock, type GetStore } from "./fixtures.js";

const budget = (over: Partial<NewBudget> = {}): NewBudget => ({
  companyId: "co1",
  agentId: null,
  limitUsd: 20,
  limitTokens: null,
  period: "month",
  warnAt: 0.8,
  runCaps: { maxModelCalls: 50, maxToolCalls: 100, maxTokens: null, maxUsd: 2.5 },
  ...over,
});

const call = (id: string, over: Partial<NewModelCall> = {}): NewModelCall => ({
  id,
  companyId: "co1",
  agentId: "ceo",
  runId: "r1",
  model: "claude-sonnet-4-5-20250929",
  reservedTokens: 1_000,
  reservedUsd: 0.015,
  ...over,
});

const usage = { input: 100, output: 50, cacheRead: 800, cacheWrite: 50 };

export function budgetContract(store: GetStore): void {
  describe("budgets and the spend ledger", () => {
    it("writes a company's and an agent's budget and reads them back exactly; a put replaces", async () => {
      await seed(store());
      await store().insertAgent(agent("a1"));
      expect(await store().getBudget("co1", null)).toBeUndefined();
      const written = await store().putBudget(budget());
      expect(written).toMatchObject({ ...budget(), updatedAt: expect.any(String) });
      await store().putBudget(
        budget({ agentId: "a1", limitUsd: null, limitTokens: 1_500, period: "total", runCaps: null }),
      );
      await store().putBudget(budget({ limitUsd: 12.34, warnAt: 0.5 }));
      expect(await store().getBudget("co1", null)).toMatchObject({ limitUsd: 12.34, warnAt: 0.5 });
      expect(await store().getBudget("co1", "a1")).toMatchObject({
        agentId: "a1",
        limitUsd: null,
        limitTokens: 1_500,
        period: "total",
        runCaps: null,
      });
      expect((await store().listBudgets("co1")).map((b) => b.agentId)).toEqual([null, "a1"]);
    });

    it("counts settled calls as used and a running run's reservations; an ended run's leftovers not at all", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().reserveModelCall(call("c1"));
      await store().reserveModelCall(call("c2", { runId: "r2", reservedTokens: 500, reservedUsd: null }));
      expect(await store().spendOf({ companyId: "co1" })).toEqual({
        tokens: 1_500,
        usd: 0.015,
        unpricedCalls: 0,
        calls: 0,
        reservedTokens: 1_500,
        reservedUsd: 0.015,
      });
      expect(
        await store().settleModelCall("c1", {
          servedModel: "claude-sonnet-4-5-20250929",
          usage,
          costUsd: 0.0021,
        }),
      ).toBe(true);
      // Settling twice changes nothing: the call is no longer reserved.
      expect(await store().settleModelCall("c1", { servedModel: null, usage, costUsd: 9 })).toBe(false);
      await store().finishRun("r2", { status: "failed", usage, error: "budget", stopReason: "budget" });
      const spend = await store().spendOf({ companyId: "co1" });
      expect(spend).toMatchObject({ tokens: 1_000, calls: 1, reservedTokens: 0, unpricedCalls: 0 });
      expect(spend.usd).toBeCloseTo(0.0021, 10);
      expect((await store().getRun("r2"))?.stopReason).toBe("budget");
      expect((await store().getRun("r1"))?.stopReason).toBeNull();
      const [c1] = await store().listModelCalls("r1");
      expect(c1).toMatchObject({
        status: "settled",
        servedModel: "claude-sonnet-4-5-20250929",
        usage,
        costUsd: 0.0021,
        settledAt: expect.any(String),
      });
      expect(await store().releaseModelCalls("r2")).toBe(1);
      expect(await store().listModelCalls("r2")).toEqual([]);
    });

    it("keeps an unknown price unknown (null), counts its tokens, and filters by agent, run and time", async () => {
      await seed(store());
      await store().insertAgent(agent("a1"));
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2", { agentId: "a1" }));
      setClock("2026-01-31T23:00:00.000Z");
      await store().reserveModelCall(call("old"));
      await store().settleModelCall("old", { servedModel: "m", usage, costUsd: 1 });
      setClock("2026-02-01T01:00:00.000Z");
      await store().reserveModelCall(
        call("new", { runId: "r2", agentId: "a1", model: "local-7b", reservedUsd: null }),
      );
      await store().settleModelCall("new", { servedModel: "local-7b", usage, costUsd: null });
      expect((await store().listModelCalls("r2"))[0]?.costUsd).toBeNull();
      expect(await store().spendOf({ companyId: "co1", since: "2026-02-01T00:00:00.000Z" })).toEqual({
        tokens: 1_000,
        usd: 0,
        unpricedCalls: 1,
        calls: 1,
        reservedTokens: 0,
        reservedUsd: 0,
      });
      expect((await store().spendOf({ companyId: "co1" })).tokens).toBe(2_000);
      expect((await store().spendOf({ companyId: "co1", agentId: "ceo" })).usd).toBe(1);
      expect((await store().spendOf({ companyId: "co1", runId: "r2" })).calls).toBe(1);
    });

    for (const isolation of ["serializable", "read committed"] as const)
      it(`lets concurrent check-then-reserve transactions take the last room exactly once (${isolation}${isolation === "read committed" ? ", under lockSpend" : ""})`, async () => {
        await seed(store());
        await store().insertRun(run("r1"));
        const limit = 2_500; // room for two reservations of 1,000
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            store().transaction(
              async (tx) => {
                if (isolation === "read committed") expect(await tx.lockSpend("co1")).toBe(true);
                const spend = await tx.spendOf({ companyId: "co1" });
                if (spend.tokens + 1_000 > limit) return false;
                await sleep(Math.random() * 5);
                await tx.reserveModelCall(call(`c${i}`));
                return true;
              },
              { isolation },
            ),
          ),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(2);
        expect((await store().spendOf({ companyId: "co1" })).tokens).toBe(2_000);
      });
  });
}
