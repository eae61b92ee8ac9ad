// The store contract on a real PostgreSQL server (a fresh schema per store), plus what only
// PostgreSQL has: several instances starting at once, a shared server, its own errors.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, StoreError } from "./index.js";
import { storeContract } from "./testing/contract.js";
import { jsonActivity, seed } from "./testing/fixtures.js";
import { dropTestSchemas, freshSchema, openFreshPostgresStore, testDatabaseUrl } from "./testing/postgres.js";

afterAll(dropTestSchemas);

storeContract("postgres", openFreshPostgresStore);

async function query<R extends pg.QueryResultRow>(text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

describe("postgres store", () => {
  it("migrates once when several instances open the same empty schema at the same moment", async () => {
    const schema = freshSchema();
    const stores = await Promise.all(
      Array.from({ length: 6 }, () => openStore({ url: testDatabaseUrl(), schema, poolSize: 2 })),
    );
    try {
      await seed(stores[0]!);
      for (const store of stores) expect((await store.getAgent("ceo"))?.isCeo).toBe(true);
      const applied = await query<{ name: string }>(
        `select name from "${schema}".kysely_migration order by name`,
      );
      expect(applied.map((r) => r.name)).toEqual([...new Set(applied.map((r) => r.name))]);
      expect(applied[0]?.name).toBe("001_initial");
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("keeps its data across close and reopen, in its own schema", async () => {
    const schema = freshSchema();
    const first = await openStore({ url: testDatabaseUrl(), schema });
    expect(first.dialect).toBe("postgres");
    await seed(first);
    const counts = await first.counts();
    await first.close();
    const second = await openStore({ url: testDatabaseUrl(), schema });
    try {
      expect(await second.counts()).toEqual(counts);
      const tables = await query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = '${schema}' and table_name = 'companies'`,
      );
      expect(tables).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("keeps JSON exactly as written (key order included), as SQLite does", async () => {
    const store = await openFreshPostgresStore();
    try {
      await seed(store);
      const written = await store.insertActivity(
        jsonActivity({ z: 1, a: [2.5, "x"], m: { y: null, b: true } }),
      );
      const [read] = await store.listActivity("co1");
      expect(read).toEqual(written);
      expect(JSON.stringify(read?.type === "budget.changed" && read.data.change)).toBe(
        '{"z":1,"a":[2.5,"x"],"m":{"y":null,"b":true}}',
      );
    } finally {
      await store.close();
    }
  });

  it("refuses what is not a reachable PostgreSQL with a StoreError that hides the password", async () => {
    await expect(openStore({ url: "mysql://u:p@localhost/db" })).rejects.toBeInstanceOf(StoreError);
    await expect(openStore({ url: testDatabaseUrl(), schema: "bad name;" })).rejects.toThrow(
      /plain identifier/,
    );
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const error = await openStore({ url: "postgres://cadre:s3cret@127.0.0.1:1/cadre" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain("postgres://cadre:***@127.0.0.1:1/cadre");
    expect((error as Error).message).not.toContain("s3cret");
  });
});
