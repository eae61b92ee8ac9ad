// Several `cadre serve`s (store + cluster parts, embedded worker included) starting at the same
// moment against an empty PostgreSQL database: all of them start, the store's schema is migrated
// once (an advisory lock around the migrations) and pg-boss installs its schema and the wake queue
// once (its own advisory lock; the queue insert ignores a concurrent twin).
import { randomBytes } from "node:crypto";
import { createCompany } from "@cadre/company";
import { MIGRATION_NAMES, openStore, type Store } from "@cadre/store";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { type ClusterParts, startClusterParts } from "./serve-parts.js";

const name = `cadre_first_${randomBytes(4).toString("hex")}`;
let url: string;

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin((c) => c.query(`create database ${name}`));
  const target = new URL(testDatabaseUrl());
  target.pathname = `/${name}`;
  url = target.toString();
});
afterAll(async () => {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
});

it("lets several instances start at once on an empty database, migrating the store and installing the queue once", async () => {
  const start = async (): Promise<{ store: Store; cluster: ClusterParts }> => {
    const store = await openStore({ url, poolSize: 2 });
    const cluster = await startClusterParts({ url, worker: true, env: {}, pollMs: 200, log: () => {} });
    return { store, cluster };
  };
  const instances = await Promise.allSettled(Array.from({ length: 3 }, start));
  const started = instances.flatMap((i) => (i.status === "fulfilled" ? [i.value] : []));
  try {
    expect(instances.map((i) => (i.status === "rejected" ? String(i.reason) : "started"))).toEqual([
      "started",
      "started",
      "started",
    ]);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const migrations = (
        await db.query<{ name: string }>("select name from public.kysely_migration order by name")
      ).rows.map((r) => r.name);
      expect(migrations).toEqual([...MIGRATION_NAMES]);
      expect((await db.query("select version from pgboss.version")).rows).toHaveLength(1);
      expect((await db.query("select name from pgboss.queue where name = 'cadre-wakes'")).rows).toHaveLength(
        1,
      );
    } finally {
      await db.end();
    }
    // And the installation works: a wake queued through one instance runs on one of the workers.
    const [first] = started;
    const company = await createCompany(first!.store, { name: "First Start" });
    const ceo = (await first!.store.listAgents(company.id))[0]!;
    const { wakeId } = await first!.cluster.queue.enqueue({
      agentId: ceo.id,
      trigger: "start_team_building",
      seed: 1,
    });
    for (let i = 0; i < 300 && (await first!.store.getWake(wakeId))?.status !== "done"; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await first!.store.getWake(wakeId)).toMatchObject({
      status: "done",
      runId: expect.stringMatching(/^run_/),
    });
  } finally {
    for (const { store, cluster } of started) {
      await cluster.close();
      await store.close();
    }
  }
});
