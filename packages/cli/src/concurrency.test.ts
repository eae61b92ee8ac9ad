// Several `cadre` processes at once on one store, on SQLite and on PostgreSQL:
// demos started together on an empty data dir make exactly one company; wakes of one agent from
// several processes never overlap — one runs, the others are refused saying which run is in the
// way — so nothing is hired twice.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type RunRow, type Store } from "@cadre/store";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../store/src/testing/postgres.js";
import { cliEnv, type Exited, runCliProcess } from "./testing/spawn-cli.js";

afterAll(dropTestSchemas);

const PROCESSES = 4;

interface Backend {
  /** Arguments that point a command at the store. */
  args: string[];
  open(): Promise<Store>;
}

const backends: Record<string, () => Promise<Backend>> = {
  sqlite: async () => ({ args: [], open: () => openStore({ path: join(dir, "cadre.db") }) }),
  postgres: async () => {
    const schema = freshSchema();
    // The schema exists (and is migrated) before a URL's search_path can name it.
    await (await openStore({ url: testDatabaseUrl(), schema })).close();
    const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return { args: ["--database", url], open: () => openStore({ url, poolSize: 2 }) };
  },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-concurrent-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** No two runs of the agent were running at the same time. */
function expectNoOverlap(runs: RunRow[]): void {
  const spans = runs.map((r) => [r.startedAt, r.endedAt ?? "9999"] as const).sort();
  for (let i = 1; i < spans.length; i++) expect(spans[i]![0] >= spans[i - 1]![1]).toBe(true);
}

function expectRefusedOrDone(results: Exited[]): void {
  for (const r of results) {
    expect([0, 2], r.stderr).toContain(r.code);
    if (r.code === 2) expect(r.stderr).toMatch(/is already running run run_\w+ .*one wake per agent/);
  }
}

async function expectNoDuplicateHires(store: Store, companyId: string): Promise<void> {
  const names = (await store.listAgents(companyId, { status: "active" })).map((a) => a.name.toLowerCase());
  expect(new Set(names).size).toBe(names.length);
  expect(names.length).toBeLessThanOrEqual((await store.getCompany(companyId))!.settings.maxTeamSize);
}

describe.each(Object.keys(backends))("several cadre processes at once (%s)", (name) => {
  it(`${PROCESSES} demos on an empty data dir make exactly one company, and their wakes never overlap`, async () => {
    const backend = await backends[name]!();
    const results = await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        runCliProcess(["demo", "--data", dir, "--seed", String(i + 1), ...backend.args], cliEnv()),
      ),
    );
    expectRefusedOrDone(results);
    expect(results.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
    const store = await backend.open();
    try {
      const companies = await store.listCompanies();
      expect(companies).toHaveLength(1);
      const runs = await store.listRuns({ companyId: companies[0]!.id });
      expect(runs.length).toBe(results.filter((r) => r.code === 0).length);
      expect(runs.every((r) => r.status === "done")).toBe(true);
      expectNoOverlap(runs);
      await expectNoDuplicateHires(store, companies[0]!.id);
    } finally {
      await store.close();
    }
  }, 120_000);

  it(`${PROCESSES} wakes of one CEO from as many processes: one runs at a time, nothing is hired twice`, async () => {
    const backend = await backends[name]!();
    const setup = await runCliProcess([
      "company",
      "create",
      "--name",
      "Parallel Co",
      "--data",
      dir,
      "--json",
      ...backend.args,
    ]);
    expect(setup.code, setup.stderr).toBe(0);
    const store = await backend.open();
    try {
      const [company] = await store.listCompanies();
      const ceo = (await store.listAgents(company!.id)).find((a) => a.isCeo)!;
      const wake = ["wake", ceo.id, "--data", dir, "--trigger", "start_team_building", ...backend.args];
      if (name === "postgres") wake.push("--in-process");
      const results = await Promise.all(Array.from({ length: PROCESSES }, () => runCliProcess(wake)));
      expectRefusedOrDone(results);
      const runs = await store.listRuns({ agentId: ceo.id });
      expect(runs.length).toBe(results.filter((r) => r.code === 0).length);
      expect(runs.length).toBeGreaterThanOrEqual(1);
      expectNoOverlap(runs);
      await expectNoDuplicateHires(store, company!.id);
      expect(await store.listRunningWakes()).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
