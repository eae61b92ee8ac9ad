import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATION_NAMES, openStore, StoreError } from "./index.js";
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
      expect(raw.prepare("select name from kysely_migration order by name").pluck().all()).toEqual([
        ...MIGRATION_NAMES,
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

  it("readonly: reads an existing store and writes nothing — no file, no directory, no row", async () => {
    const path = freshPath();
    const writer = await openStore({ path });
    await seed(writer);
    const counts = await writer.counts();
    await writer.close();
    const reader = await openStore({ path, readonly: true });
    try {
      expect(await reader.counts()).toEqual(counts);
      await expect(reader.insertCompany(company("co3"))).rejects.toBeInstanceOf(StoreError);
    } finally {
      await reader.close();
    }
    const missing = join(dir, "never-created", "cadre.db");
    await expect(openStore({ path: missing, readonly: true })).rejects.toThrow(/cannot open SQLite store/);
    expect(existsSync(join(dir, "never-created"))).toBe(false);
  });

  it("readonly: an older store is not migrated, and says what to run", async () => {
    const path = freshPath();
    await (await openStore({ path })).close();
    const raw = new SqliteDatabase(path);
    raw.prepare("delete from kysely_migration where name = '007_agent_name_key'").run();
    raw.close();
    await expect(openStore({ path, readonly: true })).rejects.toThrow(
      /written by an older Cadre \(1 migration\(s\) behind\) and is opened read-only; run a command that writes to it first/,
    );
  });
});
