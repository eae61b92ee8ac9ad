// The crash test: real `cadre demo` / `cadre wake` processes SIGKILLed at random points
// of their runs, 20 times on SQLite and 20 times on PostgreSQL, each kill followed by the next
// command on the same store (which recovers what the killed one left). It ends with no running run,
// no live token of an ended run, the usage of every completed model call on its run row (the run's
// stored usage events are the record), one terminal event per run, no process left running in a
// run's folder, no agent's session still held by a run, and nothing hired twice. Kill points come
// from a seeded generator, printed, so a failure can be replayed (CADRE_CRASH_SEED=N). Nothing here
// measures time.
import { readdirSync, readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createCompany, INTERRUPTED_REASON } from "@cadre/company";
import { openStore, type RunRow, type Store } from "@cadre/store";
import { afterAll, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../store/src/testing/postgres.js";
import { cliEnv, runCliProcess, startCli } from "./testing/spawn-cli.js";

afterAll(dropTestSchemas);

const KILLS = 20;
const SEED = Number(process.env["CADRE_CRASH_SEED"] ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a small seeded generator, so that the kill points of a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Backend {
  name: string;
  args: string[];
  /** `cadre wake` runs the wake here, not through the queue (no worker in this test). */
  wakeArgs: string[];
  store: Store;
}

async function backend(name: string, dir: string): Promise<Backend> {
  if (name === "sqlite")
    return { name, args: [], wakeArgs: [], store: await openStore({ path: join(dir, "cadre.db") }) };
  const schema = freshSchema();
  await (await openStore({ url: testDatabaseUrl(), schema })).close();
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    name,
    args: ["--database", url],
    wakeArgs: ["--in-process"],
    store: await openStore({ url, poolSize: 2 }),
  };
}

/** Processes whose working folder is inside `dir` (a legacy run's bash commands live in DIR/runs/RUN_ID). */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return found; // no /proc here: nothing to look at
  }
  for (const pid of pids) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) found.push(Number(pid));
    } catch {
      // gone, a zombie, or not ours to read
    }
  }
  return found;
}

interface Figures {
  kills: number;
  attempts: number;
  runs: number;
  recovered: number;
  recoveredWithUsage: number;
  usageChecked: number;
  modelCalls: number;
  legacyTokens: number;
}

async function crashAndRecover(name: string): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), `cadre-crash-${name}-`));
  const b = await backend(name, dir);
  const next = random(SEED + (name === "sqlite" ? 0 : 1));
  const env = cliEnv();
  const figures: Figures = {
    kills: 0,
    attempts: 0,
    runs: 0,
    recovered: 0,
    recoveredWithUsage: 0,
    usageChecked: 0,
    modelCalls: 0,
    legacyTokens: 0,
  };
  const ceos: string[] = [];
  let needCompany = true;
  let killsHere = 0;
  try {
    while (figures.kills < KILLS) {
      figures.attempts++;
      expect(
        figures.attempts,
        `kills landed ${figures.kills} times in ${figures.attempts - 1} tries`,
      ).toBeLessThan(4 * KILLS);
      // A fresh company once the last one's CEO has finished a wake (its team is built) or taken a
      // few kills, half of them on the legacy profile (a token for each run, bash commands that hire
      // over HTTP): kills then land in team building and strategy drafting, where the work is.
      if (needCompany) {
        const company = await createCompany(b.store, {
          name: `Crash Co ${ceos.length + 1}`,
          goal: "Build warehouse robots.",
          ...(ceos.length % 2 === 1 ? { settings: { profile: "legacy" as const } } : {}),
        });
        ceos.push((await b.store.listAgents(company.id)).find((a) => a.isCeo)!.id);
        needCompany = false;
        killsHere = 0;
      }
      const ceo = ceos.at(-1)!;
      const argv =
        ceos.length === 1 && figures.attempts % 2 === 0
          ? ["demo", "--data", dir, "--seed", String(figures.attempts), ...b.args]
          : ["wake", ceo, "--data", dir, "--seed", String(figures.attempts), ...b.args, ...b.wakeArgs];
      const running = startCli(argv, env);
      // A random point: after 3–30 lines of output (the run's start, the cue, tool calls, hires…),
      // then 0–30 ms more.
      const reached = await running.untilLines(3 + Math.floor(next() * 28));
      let killed = false;
      if (reached) {
        await sleep(Math.floor(next() * 30));
        killed = running.child.kill("SIGKILL");
      }
      const exited = await running.exited;
      if (killed && exited.signal === "SIGKILL") {
        figures.kills++;
        killsHere++;
      } else {
        expect([0, 1], `${argv.join(" ")}: ${exited.stderr}`).toContain(exited.code);
      }
      needCompany = exited.signal !== "SIGKILL" || killsHere >= 3;
    }
    // The next command on the store recovers what the last kill left, then runs to its end.
    const last = await runCliProcess(["wake", ceos.at(-1)!, "--data", dir, ...b.args, ...b.wakeArgs], env);
    expect(last.code, last.stderr).toBe(0);

    const store = b.store;
    expect(await store.listRuns({ status: "running" })).toEqual([]);
    expect(await store.listRunningWakes()).toEqual([]);
    const runs: RunRow[] = await store.listRuns();
    figures.runs = runs.length;
    for (const run of runs) {
      const events = await store.listRunEvents(run.id);
      expect(
        events.filter((e) => e.type === "terminal"),
        `terminal events of ${run.id}`,
      ).toHaveLength(1);
      // Every completed model call's usage is on the run row: the sum of its stored usage events.
      const calls = events.filter((e) => e.type === "usage").map((e) => (e.data as { usage: Usage }).usage);
      expect(run.usage, `usage of ${run.id}`).toEqual({
        input: sum(calls, "input"),
        output: sum(calls, "output"),
        cacheRead: sum(calls, "cacheRead"),
        cacheWrite: sum(calls, "cacheWrite"),
      });
      figures.usageChecked++;
      figures.modelCalls += calls.length;
      if (run.error === INTERRUPTED_REASON) {
        figures.recovered++;
        if (calls.length > 0) figures.recoveredWithUsage++;
      }
    }
    // No agent's session still held by a run: recovery released each killed run's lock.
    for (const ceo of ceos) expect((await store.getAgentSession(ceo))?.runningRunId ?? null).toBeNull();
    // No live token of an ended run (every run has ended).
    for (const ceo of ceos)
      for (const token of await store.listApiTokens(ceo)) {
        if (token.runId === null) continue;
        figures.legacyTokens++;
        expect(token.revokedAt, `token ${token.id} of run ${token.runId}`).not.toBeNull();
      }
    // Nothing the killed runs started is still running (recovery killed what was left).
    await expect.poll(() => processesIn(dir), { timeout: 10_000 }).toEqual([]);
    // Nothing hired twice, no team over its size.
    for (const company of await store.listCompanies()) {
      const team = await store.listAgents(company.id, { status: "active" });
      const names = team.map((a) => a.name.toLowerCase());
      expect(new Set(names).size, `team of ${company.name}: ${names.join(", ")}`).toBe(names.length);
      expect(team.length).toBeLessThanOrEqual(company.settings.maxTeamSize);
      const hiredEvents = await store.listActivity(company.id, { type: "agent.hired" });
      expect(hiredEvents).toHaveLength(team.length - 1);
    }
    expect(figures.recovered).toBeGreaterThan(0);
    return figures;
  } finally {
    await b.store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

type Usage = { input: number; output: number; cacheRead: number; cacheWrite: number };
const sum = (calls: Usage[], key: keyof Usage) => calls.reduce((n, u) => n + u[key], 0);

describe("SIGKILL at random points, then recovery", () => {
  it(`${KILLS} kills on SQLite and ${KILLS} on PostgreSQL leave nothing running, no live token, every usage recorded`, async () => {
    const started = Date.now();
    const [sqlite, postgres] = await Promise.all([crashAndRecover("sqlite"), crashAndRecover("postgres")]);
    // Figures for the report (not asserted: a loaded machine makes them vary).
    console.log(
      `crash test (seed ${SEED}): ${JSON.stringify({ sqlite, postgres })}; ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 600_000); // 40 kills and recoveries: 215 s measured on this machine under a load of 15-18 on 2 cores
});
