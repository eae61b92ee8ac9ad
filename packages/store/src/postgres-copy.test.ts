// `cadre migrate`'s copy: a SQLite store with every kind of row lands in PostgreSQL identical,
// record for record, and the target keeps working (its ids continue after the copied ones).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import { copySqliteToPostgres, openStore, StoreError, TargetNotEmptyError, type Store } from "./index.js";
import { readColumns, tableChecksum } from "./postgres-checksum.js";
import { openPostgres } from "./postgres.js";
import {
  jsonActivity,
  agent,
  approval,
  company,
  connector,
  run,
  runEvent,
  seed,
  setClock,
} from "./testing/fixtures.js";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "./testing/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "cadre-copy-"));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropTestSchemas();
});
let files = 0;

const TEXT = [
  "emoji 👩‍💻🚀",
  "公司目标 · مرحبا · é vs é",
  "controls \u0001\u0007\t\n\r\u001b\u007f\u2028",
  `quotes ' " \\ % _ ;`,
  "",
];

/** A SQLite store holding rows of every table, with the awkward cases a copy could get wrong. */
async function richSqlite(): Promise<{ path: string; store: Store }> {
  const path = join(dir, `src${++files}`, "cadre.db");
  const store = await openStore({ path });
  await seed(store);
  await store.insertCompany(
    company("co2", {
      name: TEXT[0]!,
      settings: { maxTeamSize: 3, requireHireApproval: false, profile: "legacy" },
    }),
  );
  await store.insertConnector(
    connector("co2", "offline", { config: { z: 1, a: { ключ: [1.5, null, true] } } }),
  );
  setClock("2025-01-01T00:00:00.000Z");
  // "a-boss" is written before "0-report" but sorts after it: the copy must follow write order.
  await store.insertAgent(
    agent("a-boss", { companyId: "co2", isCeo: true, department: null, name: TEXT[1]! }),
  );
  await store.insertAgent(
    agent("0-report", { companyId: "co2", reportsTo: "a-boss", description: TEXT[2]! }),
  );
  await store.setAgentStatus("0-report", "terminated");
  for (const [i, text] of TEXT.entries()) {
    await store.insertApproval(approval(`ap${i}`, { title: text, payload: text }), text);
  }
  await store.decideApproval("ap1", "approved", TEXT[3]!, "operator");
  await store.decideApproval("ap2", "revision_requested", null, "operator");
  for (let r = 0; r < 3; r++) {
    await store.insertRun(run(`r${r}`, { cue: TEXT[r]! }));
    await store.appendRunEvents(
      Array.from({ length: 40 }, (_, seq) =>
        runEvent(`r${r}`, seq, {
          data: { seq, text: TEXT[seq % TEXT.length], n: seq / 7, deep: { b: [seq], a: null } },
        }),
      ),
    );
    await store.insertActivity(
      jsonActivity({ r, z: "last", a: "first" }, { runId: `r${r}`, agentId: "ceo" }),
    );
  }
  await store.finishRun("r0", {
    status: "done",
    usage: { input: 2 ** 31 - 1, output: 5, cacheRead: 0, cacheWrite: 1 },
    error: null,
  });
  await store.finishRun("r1", {
    status: "failed",
    usage: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 },
    error: TEXT[4]!,
  });
  await store.insertApiToken({
    id: "tok1",
    hash: "ab".repeat(32),
    companyId: "co1",
    agentId: "ceo",
    runId: "r0",
    label: TEXT[0]!,
  });
  await store.revokeApiTokens({ id: "tok1" });
  await store.insertToolCall({
    runId: "r0",
    toolCallId: "call_0",
    tool: "hire_agent",
    inputHash: "cd".repeat(32),
    result: { agentId: "0-report", name: TEXT[1], z: 1, a: [2.5] },
  });
  vi.useRealTimers();
  return { path, store };
}

/** Everything a caller can read, through the Store interface. */
async function everything(store: Store) {
  const companies = await store.listCompanies();
  const out: Record<string, unknown> = {
    companies,
    counts: await store.counts(),
    runs: await store.listRuns(),
    toolCall: await store.getToolCall("r0", "call_0"),
  };
  for (const c of companies) {
    out[`${c.id}/connectors`] = await store.listConnectors(c.id);
    out[`${c.id}/agents`] = await store.listAgents(c.id);
    const approvals = await store.listApprovals(c.id);
    out[`${c.id}/approvals`] = approvals;
    for (const a of approvals) out[`${a.id}/history`] = await store.listApprovalEvents(a.id);
    out[`${c.id}/events`] = await store.listCompanyEvents(c.id);
    out[`${c.id}/activity`] = await store.listActivity(c.id);
    out[`${c.id}/feed`] = await store.listFeed(c.id);
    for (const a of await store.listAgents(c.id)) out[`${a.id}/tokens`] = await store.listApiTokens(a.id);
  }
  return out;
}

describe("copySqliteToPostgres", () => {
  it("copies every table with nothing lost, ids and order kept, and reports matching counts and checksums", async () => {
    const { path, store: source } = await richSqlite();
    const expected = await everything(source);
    await source.close();
    const schema = freshSchema();
    const progress: string[] = [];

    const report = await copySqliteToPostgres({
      from: join(path, ".."),
      to: { url: testDatabaseUrl(), schema },
      batchSize: 7,
      onProgress: (m) => progress.push(m),
    });

    expect(report.sqlitePath).toBe(path);
    const counts = expected["counts"] as Record<string, number>;
    expect(report.tables.map((t) => t.table)).toEqual(Object.keys(counts));
    for (const t of report.tables) {
      expect(t.source).toEqual(t.target);
      expect(t.source.rows).toBe(counts[t.table]);
    }
    expect(counts["run_events"]).toBe(120);
    expect(progress).toContain("run_events: 120 rows");

    const target = await openStore({ url: testDatabaseUrl(), schema });
    try {
      expect(await everything(target)).toEqual(expected);
      // Identities continue after the copied ids.
      const maxEvent = Math.max(...(expected["co1/events"] as Array<{ id: number }>).map((e) => e.id));
      const [next] = await target.appendRunEvents([runEvent("r2", 40)]);
      expect(next!.id).toBe(maxEvent + 1);
    } finally {
      await target.close();
    }
  });

  it("refuses a target that holds rows unless asked to replace them", async () => {
    const { path, store } = await richSqlite();
    await store.close();
    const schema = freshSchema();
    await copySqliteToPostgres({ from: path, to: { url: testDatabaseUrl(), schema } });
    const target = await openStore({ url: testDatabaseUrl(), schema });
    await target.insertCompany(company("extra"));
    const before = await target.counts();

    const error = await copySqliteToPostgres({ from: path, to: { url: testDatabaseUrl(), schema } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TargetNotEmptyError);
    expect((error as TargetNotEmptyError).counts).toEqual(before);
    expect(await target.counts()).toEqual(before);

    const report = await copySqliteToPostgres({
      from: path,
      to: { url: testDatabaseUrl(), schema },
      replace: true,
    });
    expect(report.tables.every((t) => t.source.checksum === t.target.checksum)).toBe(true);
    expect(await target.getCompany("extra")).toBeUndefined();
    expect((await target.counts())["companies"]).toBe(2);
    await target.close();
  });

  it("checksums tell one changed value apart", async () => {
    const { path, store } = await richSqlite();
    await store.close();
    const schema = freshSchema();
    await copySqliteToPostgres({ from: path, to: { url: testDatabaseUrl(), schema } });
    const { db } = await openPostgres({ url: testDatabaseUrl(), schema });
    try {
      const columns = (await readColumns(db, schema)).get("run_events")!;
      const before = await tableChecksum(db as Kysely<any>, "run_events", columns, 50);
      await (db as Kysely<any>)
        .updateTable("run_events")
        .set({ data: '{"seq":3}' })
        .where("id", "=", 4)
        .execute();
      const after = await tableChecksum(db as Kysely<any>, "run_events", columns, 50);
      expect(after.rows).toBe(before.rows);
      expect(after.checksum).not.toBe(before.checksum);
    } finally {
      await db.destroy();
    }
  });

  it("refuses a missing source without creating it", async () => {
    const missing = join(dir, "nothing", "cadre.db");
    await expect(
      copySqliteToPostgres({ from: missing, to: { url: testDatabaseUrl(), schema: freshSchema() } }),
    ).rejects.toThrow(StoreError);
    await expect(
      copySqliteToPostgres({ from: missing, to: { url: testDatabaseUrl(), schema: freshSchema() } }),
    ).rejects.toThrow(/no SQLite store/);
  });
});
