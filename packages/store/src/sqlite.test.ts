import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, StoreError } from "./index.js";
import { storeContract } from "./testing/contract.js";
import { company, seed } from "./testing/fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "cadre-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** A fresh database file in a directory that does not exist yet. */
const freshPath = () => join(dir, `db${++files}`, "nested", "cadre.db");

storeContract("sqlite (memory)", () => openStore({ memory: true }));
storeContract("sqlite (file)", () => openStore({ path: freshPath() }));

describe("sqlite file store", () => {
  it("keeps its data across close and reopen, migrating only once", async () => {
    const path = freshPath();
    const first = await openStore({ path });
    await seed(first);
    const counts = await first.counts();
    await first.close();

    const second = await openStore({ path });
    expect(second.dialect).toBe("sqlite");
    expect(await second.counts()).toEqual(counts);
    expect((await second.getAgent("ceo"))?.isCeo).toBe(true);
    await second.insertCompany(company("co2"));
    await second.close();

    const raw = new SqliteDatabase(path, { readonly: true });
    try {
      expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(raw.prepare("select name from kysely_migration").pluck().all()).toEqual([
        "001_initial",
        "002_api_tokens",
        "003_company_feed",
        "004_wakes",
        "005_tool_calls",
        "006_run_leases",
        "007_agent_name_key",
        "008_agent_sessions",
        "010_tasks",
      ]);
      expect(raw.prepare("select count(*) from companies").pluck().get()).toBe(2);
    } finally {
      raw.close();
    }
  });

  it("refuses a file that is not a database with a StoreError", async () => {
    const path = join(dir, "not-a-db.txt");
    writeFileSync(path, "hello, this is not SQLite ".repeat(100));
    await expect(openStore({ path })).rejects.toBeInstanceOf(StoreError);
  });
});
