// The crash-and-budget soak: real `cadre` processes (`run --until-idle`, `budgets set`,
// `tasks create`, `agents terminate`) on an offline company at work, on SQLite and on PostgreSQL,
// with random SIGKILLs mid-run and budget stops (the token limit set just above what is used, then
// removed), one lead terminated mid-soak, and new operator tasks whenever the company runs out of
// work, until WAKES runs have started. Then one last `run --until-idle` and the checks: every wake
// reason served (taken by a run that ended done) or explicitly cancelled (dropped with a note),
// none pending; no run `running`; no open task assigned to a terminated agent. The choices come from
// a seeded generator, printed (replay with CADRE_SOAK_SEED=N). Nothing here measures time.
//
// Size: `npm test` runs 15 wakes per store (96–145 s measured, both stores at once, on this 2-core
// machine under load); CADRE_SOAK_WAKES=50 runs the issue's 50 (428 s measured: over the couple of
// minutes `npm test` can spare, so behind the variable).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openStore, type Store } from "@cadre/store";
import { afterAll, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../store/src/testing/postgres.js";
import { cliEnv, runCliProcess, startCli } from "./testing/spawn-cli.js";

afterAll(dropTestSchemas);

const WAKES = Number(process.env["CADRE_SOAK_WAKES"] ?? 15);
const SEED = Number(process.env["CADRE_SOAK_SEED"] ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32, as in the crash test: a failing soak's choices can be replayed from its seed. */
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

async function backend(name: string, dir: string): Promise<{ args: string[]; store: Store }> {
  if (name === "sqlite") return { args: [], store: await openStore({ path: join(dir, "cadre.db") }) };
  const schema = freshSchema();
  await (await openStore({ url: testDatabaseUrl(), schema })).close();
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { args: ["--database", url], store: await openStore({ url, poolSize: 2 }) };
}

interface Figures {
  runs: number;
  kills: number;
  budgetStops: number;
  operatorTasks: number;
  terminated: string | null;
  served: number;
  cancelled: number;
}

async function soak(name: string): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), `cadre-soak-${name}-`));
  const b = await backend(name, dir);
  const next = random(SEED + (name === "sqlite" ? 0 : 1));
  const env = cliEnv();
  const figures: Figures = {
    runs: 0,
    kills: 0,
    budgetStops: 0,
    operatorTasks: 0,
    terminated: null,
    served: 0,
    cancelled: 0,
  };
  const cli = async (...argv: string[]) => {
    const r = await runCliProcess([...argv, "--data", dir, ...b.args], env);
    return r;
  };
  const ok = async (...argv: string[]) => {
    const r = await cli(...argv);
    expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
    return r;
  };
  const store = b.store;
  try {
    const demo = JSON.parse(
      (await ok("demo", "--seed", String(SEED % 1000), "--json")).stdout.trim().split("\n").at(-1)!,
    ) as { approvals: Array<{ id: string }>; company: { id: string } };
    await ok("approvals", "approve", demo.approvals[0]!.id);
    const [company] = await store.listCompanies();
    const companyId = company!.id;
    let steps = 0;
    let rolls = 0;
    while ((figures.runs = (await store.listRuns()).length) < WAKES) {
      expect(++steps, `${figures.runs} runs after ${steps - 1} steps`).toBeLessThan(6 * WAKES);
      const tasks = await store.listTasks(companyId);
      const agents = await store.listAgents(companyId, { status: "active" });
      const leads = agents.filter((a) => !a.isCeo);
      // Terminate one lead mid-soak, once it holds an open task.
      if (figures.terminated === null && figures.runs >= WAKES / 3) {
        const holder = leads.find((l) =>
          tasks.some(
            (t) => t.assigneeAgentId === l.id && (t.status === "todo" || t.status === "in_progress"),
          ),
        );
        if (holder) {
          await ok("agents", "terminate", holder.id);
          figures.terminated = holder.id;
          continue;
        }
      }
      const pending = await store.listWakeRequests({ companyId, status: "pending" });
      if (pending.length === 0 && leads.length > 0) {
        // Out of work: the operator gives a lead a new task (its assignment wakes the lead).
        const lead = leads[Math.floor(next() * leads.length)]!;
        figures.operatorTasks++;
        await ok("tasks", "create", "--title", `Soak task ${figures.operatorTasks}`, "--assignee", lead.id);
        continue;
      }
      // The first two choices are a budget stop and a kill, so that every seed has both.
      rolls++;
      const roll = rolls === 1 ? 0 : rolls === 2 ? 0.5 : next();
      if (roll < 0.25) {
        // A budget stop: the token limit just above what is used, a run, then the limit removed.
        const shown = JSON.parse((await ok("budgets", "show", "--json")).stdout) as {
          budget: { used: { tokens: number } };
        };
        await ok(
          "budgets",
          "set",
          "--tokens",
          String(shown.budget.used.tokens + 1 + Math.floor(next() * 3000)),
        );
        const stopped = await cli("run", "--until-idle", "--seed", String(steps));
        expect([0, 1], `budget-stopped run: ${stopped.stderr}`).toContain(stopped.code);
        if (/budget/i.test(stopped.stdout + stopped.stderr)) figures.budgetStops++;
        await ok("budgets", "set", "--tokens", "none");
      } else if (roll < 0.75) {
        // A SIGKILL at a random point of a run: after 1–12 lines of output, then 0–300 ms more.
        const running = startCli(
          ["run", "--until-idle", "--seed", String(steps), "--data", dir, ...b.args],
          env,
        );
        let killed = false;
        if (await running.untilLines(1 + Math.floor(next() * 12))) {
          await sleep(Math.floor(next() * 300));
          killed = running.child.kill("SIGKILL");
        }
        const exited = await running.exited;
        if (killed && exited.signal === "SIGKILL") figures.kills++;
        else expect([0, 1], `run: ${exited.stderr}`).toContain(exited.code);
      } else {
        const r = await cli(
          "run",
          "--max-wakes",
          String(1 + Math.floor(next() * 3)),
          "--seed",
          String(steps),
        );
        expect([0, 1], `run: ${r.stderr}`).toContain(r.code);
      }
    }

    // The end: no limit in the way, the next command recovers what the last kill left and runs on.
    await ok("budgets", "set", "--tokens", "none");
    const last = JSON.parse((await ok("run", "--until-idle", "--json")).stdout) as { idle: boolean };
    expect(last.idle).toBe(true);

    expect(await store.listRuns({ status: "running" })).toEqual([]);
    const runs = new Map((await store.listRuns()).map((r) => [r.id, r]));
    figures.runs = runs.size;
    for (const request of await store.listWakeRequests({ companyId })) {
      const what = `${request.trigger} wake ${request.id} of ${request.agentId}: ${request.status}`;
      expect(request.status, what).not.toBe("pending");
      if (request.status === "taken") {
        // Served: taken by a run that ended done (a run killed or stopped gives its reasons back).
        expect(runs.get(request.runId!)?.status, what).toBe("done");
        figures.served++;
      } else {
        expect(request.note, `${what}: cancelled without saying why`).toBeTruthy();
        figures.cancelled++;
      }
    }
    expect(figures.terminated, "a lead was terminated mid-soak").not.toBeNull();
    const gone = new Set(
      (await store.listAgents(companyId)).filter((a) => a.status !== "active").map((a) => a.id),
    );
    for (const task of await store.listTasks(companyId))
      if (task.status !== "done" && task.status !== "cancelled")
        expect(gone.has(task.assigneeAgentId ?? ""), `open task ${task.title} of a terminated agent`).toBe(
          false,
        );
    expect(figures.budgetStops, "budget stops that landed").toBeGreaterThan(0);
    expect(figures.kills, "kills that landed").toBeGreaterThan(0);
    return figures;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe("crash-and-budget soak", () => {
  it(`${WAKES} wakes with SIGKILLs, budget stops and a termination, on SQLite and PostgreSQL: every reason served or cancelled`, async () => {
    const started = Date.now();
    const [sqlite, postgres] = await Promise.all([soak("sqlite"), soak("postgres")]);
    // Figures for the report (not asserted: a loaded machine makes them vary).
    console.log(
      `soak (seed ${SEED}, ${WAKES} wakes): ${JSON.stringify({ sqlite, postgres })}; ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 1_800_000);
});
