// Migration 003 back-fills the feed of a store that already holds run events and activity.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, expect, it, vi } from "vitest";
import { openStore } from "./index.js";
import { ConflictError } from "./errors.js";
import { activity, agent, run, runEvent, seed } from "./testing/fixtures.js";

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
    "drop table model_calls; drop table budgets; alter table runs drop column stop_reason; alter table connectors drop column removed_at; drop table agent_sessions; drop table schedules; drop table wake_requests; drop table task_comments; drop table task_blockers; drop table tasks; drop index agents_active_name_key; alter table agents drop column name_key; drop table run_processes; drop index runs_status; drop table tool_calls; drop table wakes; drop table company_feed; delete from kysely_migration where name in ('003_company_feed', '004_wakes', '005_tool_calls', '006_run_leases', '007_agent_name_key', '008_agent_sessions', '009_connector_removal', '010_tasks', '011_budgets');",
  );
  raw.close();

  const reopened = await openStore({ path });
  const feed = await reopened.listFeed("co1");
  // Written second but timestamped first: the back-fill follows the timestamps.
  expect(feed.map((f) => (f.kind === "agent_event" ? f.event : f.activity))).toEqual([early, late[0]]);
  await reopened.close();
});

it("migration 007 keys the names already stored, keeps active look-alikes an old store holds, and refuses new ones", async () => {
  const path = join(dir, "name-key.db");
  const store = await openStore({ path });
  await seed(store);
  await store.close();
  // The schema before 007, holding what an older text check let in: "CTO" and an invisible look-alike, both active.
  const raw = new SqliteDatabase(path);
  raw.exec(
    "drop table model_calls; drop table budgets; alter table runs drop column stop_reason; alter table connectors drop column removed_at; drop table agent_sessions; drop table schedules; drop table wake_requests; drop table task_comments; drop table task_blockers; drop table tasks; drop index agents_active_name_key; alter table agents drop column name_key; delete from kysely_migration where name in ('007_agent_name_key', '008_agent_sessions', '009_connector_removal', '010_tasks', '011_budgets');",
  );
  const insert = raw.prepare(
    "insert into agents (id, company_id, name, role, description, department, connector_id, model, reports_to, is_ceo, status, via, created_at) values (?, 'co1', ?, 'r', 'd', null, 'offline', 'm', null, 0, 'active', 'tool', ?)",
  );
  insert.run("cto", "CTO", "2025-01-01T00:00:01.000Z");
  insert.run("look", "C\u200bTO", "2025-01-01T00:00:02.000Z");
  raw.close();

  const reopened = await openStore({ path });
  expect((await reopened.listAgents("co1", { status: "active" })).map((a) => a.id).sort()).toEqual([
    "ceo",
    "cto",
    "look",
  ]);
  await expect(reopened.insertAgent(agent("third", { name: "cto" }))).rejects.toBeInstanceOf(ConflictError);
  await reopened.insertAgent(agent("cfo", { name: "CFO" }));
  await reopened.close();
});
