// `cadre migrate` end to end: a demo installation on SQLite moved to PostgreSQL, then read back by
// the same CLI pointed at PostgreSQL through CADRE_DATABASE_URL.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", CADRE_DATABASE_URL: "" };

const cli = (...argv: string[]) => runCli(argv, ENV);

/** The test database, with the schema as the connection's search_path (a URL a user could write). */
const urlWithSchema = (schema: string) =>
  `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-migrate-"));
  const demo = await cli("demo", "--data", dir, "--json", "--seed", "7");
  expect(demo.code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await dropTestSchemas();
});

describe("cadre migrate", () => {
  it("copies a demo installation, reports every table on both sides, and the CLI then reads it from PostgreSQL", async () => {
    const schema = freshSchema();
    const result = await cli(
      "migrate",
      "--from",
      `sqlite:${dir}`,
      "--to",
      testDatabaseUrl(),
      "--schema",
      schema,
      "--json",
    );
    expect(result.err).toContain("agents: ");
    expect(result.code).toBe(0);
    const report = result.json();
    expect(report.identical).toBe(true);
    expect(report.to).toBe(testDatabaseUrl().replace(/:[^:@/]*@/, ":***@"));
    const tables = Object.fromEntries(report.tables.map((t: { table: string }) => [t.table, t]));
    expect(tables["agents"].source.rows).toBeGreaterThanOrEqual(4);
    expect(tables["run_events"].source.rows).toBeGreaterThan(10);
    for (const t of report.tables) expect(t).toMatchObject({ match: true, target: t.source });

    const fromSqlite = await run("node", [BIN, "agents", "list", "--data", dir, "--json"], { env: ENV });
    const fromPostgres = await run("node", [BIN, "agents", "list", "--data", dir, "--json"], {
      env: { ...ENV, CADRE_DATABASE_URL: urlWithSchema(schema) },
    });
    expect(JSON.parse(fromPostgres.stdout)).toEqual(JSON.parse(fromSqlite.stdout));

    const again = await cli(
      "migrate",
      "--from",
      `sqlite:${dir}`,
      "--to",
      testDatabaseUrl(),
      "--schema",
      schema,
    );
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already holds rows.*--replace/);
    const replaced = await cli(
      "migrate",
      "--from",
      `sqlite:${dir}`,
      "--to",
      testDatabaseUrl(),
      "--schema",
      schema,
      "--replace",
    );
    expect(replaced.code).toBe(0);
    expect(replaced.out).not.toContain("DIFFERENT");
  });

  it("refuses bad usage and a missing source with exit 2", async () => {
    expect((await cli("migrate", "--to", testDatabaseUrl())).code).toBe(2);
    expect((await cli("migrate", "--from", `sqlite:${dir}`, "--to", "mysql://x")).code).toBe(2);
    const missing = await cli(
      "migrate",
      "--from",
      `sqlite:${join(dir, "nope.db")}`,
      "--to",
      testDatabaseUrl(),
      "--schema",
      freshSchema(),
    );
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("no SQLite store");
  });

  it("refuses a CADRE_DATABASE_URL that is not PostgreSQL with exit 2", async () => {
    await expect(
      run("node", [BIN, "agents", "list", "--data", dir], {
        env: { ...ENV, CADRE_DATABASE_URL: "sqlite:x" },
      }),
    ).rejects.toMatchObject({ code: 2 });
  });
});
