// `--database URL` on the commands that open the store, and `cadre wake` on PostgreSQL: queued for
// the workers and followed until its run ends, unless --in-process.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WakeWorker } from "@cadre/server";
import { openStore } from "@cadre/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { OFFLINE_ENV, runCli } from "../testing/run-cli.js";

let data: string;
let url: string;
let queueSchema: string;
let worker: WakeWorker;
// The variable is set to somewhere unreachable: each command must take the flag over it.
const env = { ...OFFLINE_ENV, CADRE_DATABASE_URL: "postgres://nobody:secret@127.0.0.1:1/nothing" };

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), "cadre-db-option-"));
  const schema = freshSchema();
  queueSchema = freshSchema();
  // The schema exists before a URL's search_path can name it.
  await (await openStore({ url: testDatabaseUrl(), schema })).close();
  url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  worker = await WakeWorker.start({
    url: testDatabaseUrl(),
    schema,
    queue: { schema: queueSchema },
    pollMs: 200,
    env: OFFLINE_ENV,
    dataDir: data,
    log: () => {},
  });
});
afterAll(async () => {
  await worker?.stop(5000);
  await dropTestSchemas();
  await rm(data, { recursive: true, force: true });
});

describe("--database URL", () => {
  it("opens the PostgreSQL store on every store command, over CADRE_DATABASE_URL and instead of the data dir's file", async () => {
    const created = await runCli(
      ["company", "create", "--name", "Flag Co", "--database", url, "--data", data, "--json"],
      env,
    );
    expect(created.code).toBe(0);
    const listed = await runCli(["agents", "list", "--database", url, "--data", data, "--json"], env);
    expect(listed.code).toBe(0);
    expect(listed.json()).toMatchObject([{ isCeo: true }]);
    // Nothing went to the data directory's SQLite file.
    const local = await runCli(["company", "show", "--data", data], {
      ...OFFLINE_ENV,
      CADRE_DATABASE_URL: "",
    });
    expect(local.code).toBe(2);
    expect(local.err).toMatch(/no Cadre data in/);
  });

  it("refuses what is not a postgres:// URL, and is shown in --help", async () => {
    const bad = await runCli(["usage", "--database", "sqlite:x.db"], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/must be a postgres:\/\/ URL, got "sqlite:x.db"/);
    for (const command of [
      ["agents"],
      ["company"],
      ["approvals"],
      ["usage"],
      ["sessions"],
      ["wake"],
      ["demo"],
      ["mcp"],
    ]) {
      expect((await runCli([...command, "--help"], env)).out, command[0]).toMatch(/--database URL/);
    }
  });
});

describe("cadre wake on PostgreSQL", () => {
  it("queues the wake for the workers and follows its run to the end, printing its events", async () => {
    const ceo = (await runCli(["agents", "list", "--database", url, "--json"], env)).json()[0].id as string;
    const woken = await runCli(
      [
        "wake",
        ceo,
        "--database",
        url,
        "--queue-schema",
        queueSchema,
        "--trigger",
        "start_team_building",
        "--seed",
        "3",
        "--json",
      ],
      env,
    );
    expect(woken.code, woken.err).toBe(0);
    // With --json the human stream is on stderr and stdout is the one JSON line.
    expect(woken.out.trimEnd().split("\n")).toHaveLength(1);
    expect(woken.err).toMatch(/^wake wake_\w+ queued; a worker runs it/);
    expect(woken.err).toMatch(
      /run run_\w+ — mode team-building, trigger start_team_building\ncue ".+" \(\d+ tokens\)/,
    );
    expect(woken.err).toMatch(/hire_agent/);
    expect(woken.json()).toMatchObject({
      terminal: "done",
      modeBefore: "team-building",
      modeAfter: "awaiting-approval",
      via: "queue",
      wakeId: expect.stringMatching(/^wake_/),
    });
  });

  it("runs in this process with --in-process, and refuses what only this process can do without it", async () => {
    const ceo = (await runCli(["agents", "list", "--database", url, "--json"], env)).json()[0].id as string;
    const faults = await runCli(["wake", ceo, "--database", url, "--faults", "overflow-before-output"], env);
    expect(faults.code).toBe(2);
    expect(faults.err).toMatch(/add --in-process/);
    const here = await runCli(["wake", ceo, "--database", url, "--in-process", "--seed", "4", "--json"], env);
    expect(here.code).toBe(0);
    expect(here.err).not.toMatch(/queued/);
    expect(here.json()).toMatchObject({ terminal: "done", agentId: ceo });
  });
});
