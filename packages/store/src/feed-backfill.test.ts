// Migration 003 back-fills the feed of a store that already holds run events and activity.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, expect, it, vi } from "vitest";
import { openStore } from "./index.js";
import { activity, run, runEvent, seed } from "./testing/fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "cadre-feed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("back-fills existing rows in time order when the feed table is created", async () => {
  const path = join(dir, "cadre.db");
  const store = await openStore({ path });
  await seed(store);
  await store.insertRun(run("r1"));
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2025-01-01T00:00:02.000Z"));
  const late = await store.appendRunEvents([runEvent("r1", 0)]);
  vi.setSystemTime(new Date("2025-01-01T00:00:01.000Z"));
  const early = await store.insertActivity(activity("agent.hired"));
  vi.useRealTimers();
  await store.close();

  // Back to the schema as it was before 003: no feed table, migration not applied.
  const raw = new SqliteDatabase(path);
  // Later migrations go too (Kysely applies migrations in order only).
  raw.exec(
    "drop table agent_sessions; drop table tool_calls; drop table wakes; drop table company_feed; delete from kysely_migration where name in ('003_company_feed', '004_wakes', '005_tool_calls', '006_agent_sessions');",
  );
  raw.close();

  const reopened = await openStore({ path });
  const feed = await reopened.listFeed("co1");
  // Written second but timestamped first: the back-fill follows the timestamps.
  expect(feed.map((f) => (f.kind === "agent_event" ? f.event : f.activity))).toEqual([early, late[0]]);
  await reopened.close();
});
