// The README's "A company at work" walk, command for command, through the built `cadre` bin, offline,
// from an empty data dir, on three seeds: `demo --seed S`, `approvals approve ID`, `run --until-idle
// --seed S`, `tasks list`, `run --until-idle --json`. What the README says must hold on each: the
// seed fixes the company (the same seed twice hires the same leads; `--seed 4` hires four), every
// task ends done with its deliverable, N leads make N + 2 runs (the CEO on `approval_decided`, each
// lead once on `task_assigned`, the CEO once more on `task_in_review` to review the hand-ins), and a second run finds nothing due.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliProcess } from "./testing/spawn-cli.js";

// Seeds 5, 4 and 6 hire three, four and five leads: the whole range the README names.
const SEEDS = [5, 4, 6];

let dirs: string[] = [];
beforeEach(() => {
  dirs = [];
});
afterEach(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const lastLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) as string) as unknown;

async function walk(seed: number) {
  const dir = await mkdtemp(join(tmpdir(), `cadre-readme-${seed}-`));
  dirs.push(dir);
  const cli = async (...argv: string[]) => {
    const r = await runCliProcess([...argv, "--data", dir]);
    expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
    return r;
  };
  const demo = lastLine((await cli("demo", "--seed", String(seed), "--json")).stdout) as {
    approvals: Array<{ id: string }>;
    hires: Array<{ agentId: string; name: string }>;
    ceo: { agentId: string };
  };
  expect(demo.approvals, "the demo files its strategy for approval").toHaveLength(1);
  const approve = await cli("approvals", "approve", demo.approvals[0]!.id);
  expect(approve.stdout + approve.stderr, "the approval says the CEO's wake is due").toMatch(/cadre run/);
  const run = JSON.parse((await cli("run", "--until-idle", "--seed", String(seed), "--json")).stdout) as {
    wakes: Array<{ agentId: string; trigger: string; terminal: string }>;
    runs: number;
    idle: boolean;
  };
  const human = (await cli("tasks", "list")).stdout;
  const tasks = lastLine((await cli("tasks", "list", "--json")).stdout) as Array<{
    id: string;
    title: string;
    status: string;
    deliverable: string | null;
    assigneeAgentId: string;
  }>;
  const again = JSON.parse((await cli("run", "--until-idle", "--json")).stdout) as { runs: number };
  return { demo, run, human, tasks, again };
}

describe("the README's walk (demo → approve → run → tasks) holds on three seeds", () => {
  it(`seeds ${SEEDS.join(", ")}: every task done with its deliverable, N leads → N + 2 runs, then nothing due`, async () => {
    const seen: string[] = [];
    let seed4: string[] = [];
    for (const seed of SEEDS) {
      const { demo, run, human, tasks, again } = await walk(seed);
      const leads = demo.hires.map((h) => h.agentId).sort();
      const n = leads.length;
      // "how many leads the CEO hires (three to five)"; "`npx cadre demo --seed 4` hires four leads".
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
      if (seed === 4) expect(n).toBe(4);
      // "every task done, each with its deliverable": one per lead.
      expect(tasks.map((t) => t.assigneeAgentId).sort()).toEqual(leads);
      for (const t of tasks) {
        expect(t.status, `task ${t.title}`).toBe("done");
        expect((t.deliverable ?? "").trim().length, `deliverable of ${t.title}`).toBeGreaterThan(0);
        expect(human, "tasks list shows each task").toContain(t.title.slice(0, 20));
      }
      // "with N leads, N + 2": the CEO (approval_decided), each lead once (task_assigned), the CEO (task_in_review, accepting each hand-in).
      expect(run.runs).toBe(n + 2);
      const triggers = run.wakes.map(
        (w) => `${w.agentId === demo.ceo.agentId ? "CEO" : "lead"}:${w.trigger}`,
      );
      expect(triggers).toEqual([
        "CEO:approval_decided",
        ...leads.map(() => "lead:task_assigned"),
        "CEO:task_in_review",
      ]);
      expect(run.wakes.every((w) => w.terminal === "done")).toBe(true);
      expect(run.idle).toBe(true);
      // "nothing is due any more: 0".
      expect(again.runs).toBe(0);
      if (seed === 4) seed4 = demo.hires.map((h) => h.name);
      seen.push(`seed ${seed}: ${n} leads, ${tasks.length} tasks, ${run.runs} runs`);
    }
    // The same seed gives the same company: seed 4 again hires the same leads (names).
    const repeat = await walk(4);
    expect(repeat.demo.hires.map((h) => h.name)).toEqual(seed4);
    console.log(`README walk: ${seen.join("; ")}`);
  }, 600_000); // some 30 processes of the built bin on a loaded 2-core machine
});
