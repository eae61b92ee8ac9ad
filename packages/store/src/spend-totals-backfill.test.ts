// Migration 021 on a store written before it: the spend of the calls settled then is summed into the
// running totals once, so a budget reads the same after the upgrade as before it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "./index.js";
import { agent, run, seed, setClock } from "./testing/fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "cadre-totals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("migration 021 on an older store", () => {
  it("sums the calls settled before it into the totals a budget reads", async () => {
    const path = join(dir, "cadre.db");
    const store = await openStore({ path });
    await seed(store);
    await store.insertAgent(agent("a1"));
    await store.insertRun(run("r1"));
    await store.insertRun(run("r2", { agentId: "a1" }));
    const calls: Array<[string, string, string, number | null]> = [
      ["c1", "r1", "2026-01-20T10:00:00.000Z", 0.5],
      ["c2", "r2", "2026-02-02T10:00:00.000Z", null],
      ["c3", "r2", "2026-02-09T10:00:00.000Z", 0.25],
    ];
    for (const [id, runId, at, costUsd] of calls) {
      setClock(at);
      await store.reserveModelCall({
        id,
        companyId: "co1",
        agentId: runId === "r1" ? "ceo" : "a1",
        runId,
        model: "m",
        reservedTokens: 10,
        reservedUsd: 0.01,
      });
      await store.settleModelCall(id, {
        servedModel: "m",
        usage: { input: 100, output: 20, cacheRead: 5, cacheWrite: 1 },
        costUsd,
      });
    }
    const filters = [
      { companyId: "co1" },
      { companyId: "co1", agentId: "a1" },
      { companyId: "co1", since: "2026-02-01T00:00:00.000Z" },
      { companyId: "co1", agentId: "ceo", since: "2026-02-01T00:00:00.000Z" },
    ];
    const before = await Promise.all(filters.map((f) => store.spendOf(f)));
    expect(before[0]).toMatchObject({ tokens: 378, usd: 0.75, unpricedCalls: 1, calls: 3 });
    await store.close();

    // The store as an older Cadre left it: the ledger, and no totals.
    const raw = new SqliteDatabase(path);
    raw.exec(
      "drop index model_calls_reserved; drop table spend_totals; delete from kysely_migration where name = '021_spend_totals'",
    );
    raw.close();

    const upgraded = await openStore({ path });
    try {
      expect(await Promise.all(filters.map((f) => upgraded.spendOf(f)))).toEqual(before);
    } finally {
      await upgraded.close();
    }
  });
});
