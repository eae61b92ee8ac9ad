// Migration numbers are reserved per branch and merged in any order: a store that already ran a
// later-numbered migration (010) still runs an earlier one it lacks (here 008, standing in for a
// 009 that arrives after 010), and keeps what it had.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { openStore } from "./index.js";
import { seed } from "./testing/fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "cadre-migration-order-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("runs an earlier-numbered migration a store lacks after a later one already ran, keeping its rows", async () => {
  const path = join(dir, "cadre.db");
  const store = await openStore({ path });
  await seed(store);
  await store.close();
  const raw = new SqliteDatabase(path);
  raw.exec("drop table agent_sessions; delete from kysely_migration where name = '008_agent_sessions';");
  const ran = () => raw.prepare("select name from kysely_migration order by name").pluck().all() as string[];
  expect(ran()).toContain("010_tasks");
  expect(ran()).not.toContain("008_agent_sessions");
  raw.close();

  const reopened = await openStore({ path });
  try {
    expect(await reopened.getAgentSession("nobody")).toBeUndefined(); // the table is back
    expect((await reopened.listCompanies()).length).toBeGreaterThan(0);
  } finally {
    await reopened.close();
  }
  const after = new SqliteDatabase(path, { readonly: true });
  try {
    const names = after.prepare("select name from kysely_migration order by name").pluck().all() as string[];
    expect(names).toContain("008_agent_sessions");
    expect(names.filter((n) => n === "010_tasks")).toHaveLength(1);
  } finally {
    after.close();
  }
});
