// The running spend totals (migration 021): after any sequence of reservations, settlements, runs
// ending and transactions that die midway, a budget's spend read from the totals equals a full
// re-sum of the ledger — for the company and each agent, over all time and from each month.
import { describe, expect, it } from "vitest";
import type { ModelCallRow, Spend, SpendFilter } from "../types.js";
import { agent, run, seed, setClock, type GetStore } from "./fixtures.js";

/** A small seeded generator: the same sequence on every dialect and every run. */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/** The spend the filter selects, summed here from every ledger row (the test's own arithmetic). */
function resum(rows: ModelCallRow[], running: Set<string>, f: SpendFilter): Spend {
  const chosen = rows.filter(
    (r) =>
      (f.agentId === undefined || r.agentId === f.agentId) &&
      (f.since === undefined || r.createdAt >= f.since),
  );
  const settled = chosen.filter((r) => r.status === "settled");
  const live = chosen.filter((r) => r.status === "reserved" && running.has(r.runId));
  const reservedTokens = live.reduce((n, r) => n + r.reservedTokens, 0);
  const reservedUsd = live.reduce((n, r) => n + (r.reservedUsd ?? 0), 0);
  const used = (r: ModelCallRow) => r.usage.input + r.usage.output + r.usage.cacheRead + r.usage.cacheWrite;
  return {
    tokens: settled.reduce((n, r) => n + used(r), 0) + reservedTokens,
    usd: settled.reduce((n, r) => n + (r.costUsd ?? 0), 0) + reservedUsd,
    unpricedCalls: settled.filter((r) => r.costUsd === null).length,
    calls: settled.length,
    reservedTokens,
    reservedUsd,
  };
}

export function spendTotalsContract(store: GetStore): void {
  describe("running spend totals", () => {
    it("equal a full re-sum of the ledger after random settlements, runs ending and crashed transactions", async () => {
      await seed(store());
      const agents = ["ceo", "a1", "a2"];
      for (const id of agents.slice(1)) await store().insertAgent(agent(id));
      const runs = ["r0", "r1", "r2", "r3", "r4", "r5"];
      for (const [i, id] of runs.entries()) await store().insertRun(run(id, { agentId: agents[i % 3]! }));
      const running = new Set(runs);
      const reserved: string[] = [];
      const next = random(31);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
      const months = ["2026-01-15T10:00:00.000Z", "2026-02-03T08:00:00.000Z", "2026-03-01T00:00:00.000Z"];
      let calls = 0;
      const check = async () => {
        const rows = (await Promise.all(runs.map((r) => store().listModelCalls(r)))).flat();
        for (const agentId of [undefined, ...agents])
          for (const since of [
            undefined,
            "2026-01-01T00:00:00.000Z",
            "2026-02-01T00:00:00.000Z",
            "2026-03-01T00:00:00.000Z",
          ]) {
            const f: SpendFilter = {
              companyId: "co1",
              ...(agentId ? { agentId } : {}),
              ...(since ? { since } : {}),
            };
            const got = await store().spendOf(f);
            const want = resum(rows, running, f);
            expect({ ...got, usd: 0, reservedUsd: 0 }, JSON.stringify(f)).toEqual({
              ...want,
              usd: 0,
              reservedUsd: 0,
            });
            expect(got.usd).toBeCloseTo(want.usd, 9);
            expect(got.reservedUsd).toBeCloseTo(want.reservedUsd, 9);
          }
      };
      for (let step = 0; step < 90; step++) {
        if (step % 30 === 0) setClock(months[step / 30]!);
        const live = runs.filter((r) => running.has(r));
        const roll = next();
        if (roll < 0.4 || reserved.length === 0) {
          const runId = pick(live.length > 0 ? live : runs);
          const id = `c${++calls}`;
          await store().reserveModelCall({
            id,
            companyId: "co1",
            agentId: agents[runs.indexOf(runId) % 3]!,
            runId,
            model: "m",
            reservedTokens: 100 + Math.floor(next() * 900),
            reservedUsd: next() < 0.2 ? null : Math.round(next() * 1000) / 1000,
          });
          reserved.push(id);
        } else if (roll < 0.8) {
          const id = reserved.splice(Math.floor(next() * reserved.length), 1)[0]!;
          const usage = {
            input: Math.floor(next() * 5000),
            output: Math.floor(next() * 800),
            cacheRead: Math.floor(next() * 3000),
            cacheWrite: Math.floor(next() * 200),
          };
          const costUsd = next() < 0.25 ? null : Math.round(next() * 100000) / 100000;
          expect(await store().settleModelCall(id, { servedModel: "m", usage, costUsd })).toBe(true);
          // Settling twice changes nothing.
          expect(await store().settleModelCall(id, { servedModel: "m", usage, costUsd })).toBe(false);
        } else if (roll < 0.92) {
          // A crash in between: the call is settled, then the transaction dies before it commits.
          const id = pick(reserved);
          await expect(
            store().transaction(async (tx) => {
              await tx.settleModelCall(id, {
                servedModel: "m",
                usage: { input: 999_999, output: 1, cacheRead: 0, cacheWrite: 0 },
                costUsd: 42,
              });
              throw new Error("the process died here");
            }),
          ).rejects.toThrow("the process died here");
        } else if (live.length > 1) {
          const runId = pick(live);
          await store().finishRun(runId, {
            status: "done",
            usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
            error: null,
          });
          running.delete(runId);
        }
        if (step % 10 === 9) await check();
      }
      await check();
      expect((await store().spendOf({ companyId: "co1" })).calls).toBeGreaterThan(10);
    }, 60_000);
  });
}
