// The bare baselines of the server benchmark: the core of each measured route and nothing else,
// on the same HTTP stack (Hono on @hono/node-server) and the same database (better-sqlite3, a file
// in WAL mode, SQLite's defaults otherwise, as the store's), in the same process: a bearer-token
// compare for auth, one prepared statement per read, and each write's rows in one transaction — a
// hire's the same rows Cadre writes (the agent, its audit row, its activity row and feed entry,
// after the team-size and name checks), a decision's update and event. And a bare SSE fan-out:
// node:http responses written to directly, with no store between the writer and the subscribers.
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type BetterSqlite3 from "better-sqlite3";
import { Hono } from "hono";

export interface BareServer {
  url: string;
  token: string;
  /** Seeds companies of room for `perCompany` hires each, enough for `hires`; returns their ids. */
  seedCompanies(hires: number, perCompany: number, tag: string): string[];
  /** Seeds `count` pending approvals, ids tagged with `tag`; returns their ids. */
  seedApprovals(count: number, tag: string): string[];
  close(): Promise<void>;
}

export async function startBareServer(dir: string): Promise<BareServer> {
  const { default: Database } = await import("better-sqlite3");
  const db: BetterSqlite3.Database = new Database(join(dir, "bare.db"));
  db.pragma("journal_mode = WAL");
  db.exec(`
    create table companies (id text primary key, max_team_size integer not null);
    create table agents (id text primary key, company_id text not null, name text not null, role text not null,
      description text not null, department text, connector_id text not null, model text not null, created_at text not null);
    create index agents_company on agents (company_id, created_at, id);
    create unique index agents_name on agents (company_id, name);
    create table audit_log (id integer primary key autoincrement, at text not null, company_id text, actor text not null,
      action text not null, target text not null, summary text not null, request_id text);
    create index audit_log_company on audit_log (company_id, id);
    create table activity (id integer primary key autoincrement, company_id text not null, agent_id text, type text not null,
      data text not null, at text not null);
    create index activity_company on activity (company_id, id);
    create table company_feed (id integer primary key autoincrement, company_id text not null, activity_id integer unique);
    create index company_feed_company on company_feed (company_id, id);
    create table approvals (id text primary key, status text not null, note text, decided_at text);
    create table approval_events (id integer primary key autoincrement, approval_id text not null, to_status text not null, at text not null);
  `);
  const token = "bare-token-0123456789abcdef";
  const bearer = `Bearer ${token}`;
  // The same page Cadre's list answers: the first 100 by creation time then id, and the next cursor.
  const list = db.prepare("select * from agents where company_id = ? order by created_at, id limit 101");
  const insert = db.prepare(
    "insert into agents (id, company_id, name, role, description, department, connector_id, model, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning *",
  );
  let n = 0;
  const roomOf = db.prepare("select max_team_size from companies where id = ?").pluck();
  const headcount = db.prepare("select count(*) from agents where company_id = ?").pluck();
  const nameTaken = db.prepare("select 1 from agents where company_id = ? and name = ?").pluck();
  const audit = db.prepare(
    "insert into audit_log (at, company_id, actor, action, target, summary, request_id) values (?, ?, 'operator', 'agent.hire', ?, ?, ?)",
  );
  const activity = db.prepare(
    "insert into activity (company_id, agent_id, type, data, at) values (?, ?, 'agent_hired', ?, ?) returning id",
  );
  const feed = db.prepare("insert into company_feed (company_id, activity_id) values (?, ?)");
  // The checks and the four rows under the write lock from the start, as the store's BEGIN IMMEDIATE.
  const hire = db.transaction((companyId: string, b: Record<string, string>) => {
    const room = roomOf.get(companyId) as number | undefined;
    if (room === undefined) return { refused: 404 as const };
    if ((headcount.get(companyId) as number) >= room || nameTaken.get(companyId, b["name"]))
      return { refused: 409 as const };
    const at = new Date().toISOString();
    const row = insert.get(
      `agt_${++n}`,
      companyId,
      b["name"],
      b["role"],
      b["description"],
      b["department"] ?? null,
      b["connectorId"],
      b["model"],
      at,
    ) as { id: string; name: string; role: string };
    audit.run(at, companyId, row.id, `hired ${row.name} as ${row.role}`, randomUUID());
    const event = activity.get(
      companyId,
      row.id,
      JSON.stringify({ type: "agent_hired", agentId: row.id }),
      at,
    ) as {
      id: number;
    };
    feed.run(companyId, event.id);
    return { row };
  });
  const decide = db.prepare(
    "update approvals set status = 'approved', note = ?, decided_at = ? where id = ? and status = 'pending' returning *",
  );
  const event = db.prepare(
    "insert into approval_events (approval_id, to_status, at) values (?, 'approved', ?)",
  );
  const decision = db.transaction((id: string, note: string | null) => {
    const at = new Date().toISOString();
    const row = decide.get(note, at, id);
    if (row) event.run(id, at);
    return row;
  });
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.get("/api/companies/:id/agents", (c) => {
    if (c.req.header("authorization") !== bearer) return c.json({ error: "unauthorized" }, 401);
    const rows = list.all(c.req.param("id")) as Array<{ id: string; created_at: string }>;
    const items = rows.slice(0, 100);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > 100 && last
        ? Buffer.from(JSON.stringify([last.created_at, last.id]), "utf8").toString("base64url")
        : null;
    return c.json({ items, nextCursor });
  });
  app.post("/api/companies/:id/agents", async (c) => {
    if (c.req.header("authorization") !== bearer) return c.json({ error: "unauthorized" }, 401);
    const b = (await c.req.json()) as Record<string, string>;
    const done = hire.immediate(c.req.param("id"), b);
    return "row" in done ? c.json(done.row as object, 201) : c.json({ error: "refused" }, done.refused);
  });
  app.post("/api/approvals/:id/approve", async (c) => {
    if (c.req.header("authorization") !== bearer) return c.json({ error: "unauthorized" }, 401);
    const b = (await c.req.json()) as { note?: string };
    const row = decision(c.req.param("id"), b.note ?? null);
    return row ? c.json(row as object) : c.json({ error: "conflict" }, 409);
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const seed = db.prepare("insert into approvals (id, status) values (?, 'pending')");
  const company = db.prepare("insert into companies (id, max_team_size) values (?, ?)");
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    seedCompanies(hires, perCompany, tag) {
      const ids = Array.from({ length: Math.ceil(hires / perCompany) }, (_, i) => `cmp_${tag}_${i}`);
      db.transaction(() => ids.forEach((id) => company.run(id, perCompany + 50)))();
      return ids;
    },
    seedApprovals(count, tag) {
      const ids = Array.from({ length: count }, (_, i) => `apr_${tag}_${i}`);
      db.transaction(() => ids.forEach((id) => seed.run(id)))();
      return ids;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}

export interface BareFanout {
  url: string;
  subscribers(): number;
  /** Writes these frames (already encoded once) to every subscriber, as one chunk. */
  publish(chunk: string): void;
  close(): Promise<void>;
}

export async function startBareFanout(): Promise<BareFanout> {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    res.flushHeaders();
    open.add(res);
    req.on("close", () => open.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    subscribers: () => open.size,
    publish(chunk) {
      for (const res of open) res.write(chunk);
    },
    async close() {
      for (const res of open) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
