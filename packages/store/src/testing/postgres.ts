// PostgreSQL for tests: the run's server (see postgres-global-setup.ts) and a fresh schema per
// store, so that each `open()` of the contract suite starts empty while sharing one database.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { openStore } from "../index.js";
import { INSTALL_HINT } from "../postgres-throwaway.js";
import type { Store } from "../types.js";

/** The test database's URL; throws, saying how to get one, when there is none. */
export function testDatabaseUrl(): string {
  const url = inject("postgresUrl");
  if (!url) throw new Error(`no PostgreSQL server for the PostgreSQL tests. ${INSTALL_HINT}`);
  return url;
}

const prefix = `cadre_t${randomBytes(4).toString("hex")}`;
let count = 0;
const schemas: string[] = [];

/** A schema name no other test (of this or a concurrent run) uses; dropped by dropTestSchemas. */
export function freshSchema(): string {
  const schema = `${prefix}_${++count}`;
  schemas.push(schema);
  return schema;
}

export function openFreshPostgresStore(): Promise<Store> {
  return openStore({ url: testDatabaseUrl(), schema: freshSchema(), poolSize: 4 });
}

/** For afterAll: drops every schema this file created. */
export async function dropTestSchemas(): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    for (const schema of schemas.splice(0)) await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
