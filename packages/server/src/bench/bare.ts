// The bare baselines of the server benchmark: the core of each measured route and nothing else,
// on the same HTTP stack (Hono on @hono/node-server) and the same database (better-sqlite3, a file
// in WAL mode), in the same process: a bearer-token compare for auth, one prepared statement per
// read, the writes of a decision in one transaction. And a bare SSE fan-out: node:http responses
// written to directly, with no store between the writer and the subscribers.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type BetterSqlite3 from "better-sqlite3";
import { Hono } from "hono";

export interface BareServer {
  url: string;
  token: string;
  /** Seeds `count` pending approvals, ids tagged with `tag`; returns their ids. */
  seedApprovals(count: number, tag: string): string[];
  close(): Promise<void>;
}

export async function startBareServer(dir: string): Promise<BareServer> {
  const { default: Database } = await import("better-sqlite3");
  const db: BetterSqlite3.Database = new Database(join(dir, "bare.db"));
  db.pragma("journal_mode = WAL");
  db.exec(`
    create table agents (id text primary key, company_id text not null, name text not null, role text not null,
      description text not null, department text, connector_id text not null, model text not null, created_at text not null);
    create index agents_company on agents (company_id);
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
  let n = 0;
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
    const row = insert.get(
      `agt_${++n}`,
      c.req.param("id"),
      b["name"],
      b["role"],
      b["description"],
      b["department"] ?? null,
      b["connectorId"],
      b["model"],
      new Date().toISOString(),
    );
    return c.json(row as object, 201);
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
  return {
    url: `http://127.0.0.1:${port}`,
    token,
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
