// A company at work, through the built `cadre` bin, offline, from an empty data dir:
// demo → approvals approve → run --until-idle --json → tasks list --json. The CEO delegates one task
// per lead, each lead is woken once for it and finishes it with a deliverable, the CEO is woken once
// with the results; runs ≤ tasks + 2; no two runs ever held one task at once.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliProcess } from "../testing/spawn-cli.js";
import { checkoutsNeverOverlap } from "../testing/task-checks.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-run-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = async (...argv: string[]) => {
  const r = await runCliProcess([...argv, "--data", dir]);
  return r;
};
const json = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) as string) as unknown;

interface RunJson {
  wakes: Array<{
    runId: string;
    agentId: string;
    agent: string;
    trigger: string;
    terminal: string;
    tasks: string[];
  }>;
  runs: number;
  idle: boolean;
  stillDue: string[];
}

describe("cadre run: a company at work, offline", () => {
  it("demo, approve, run --until-idle: every lead's task done with a deliverable, runs = tasks + 2", async () => {
    const demo = await cli("demo", "--seed", "4", "--json");
    expect(demo.code).toBe(0);
    const summary = json(demo.stdout) as {
      approvals: Array<{ id: string }>;
      hires: Array<{ agentId: string }>;
      ceo: { agentId: string };
    };
    const approve = await cli("approvals", "approve", summary.approvals[0]!.id);
    expect(approve.code).toBe(0);

    const run = await cli("run", "--until-idle", "--json", "--seed", "5");
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as RunJson; // --json: stdout holds the JSON only
    const tasks = json((await cli("tasks", "list", "--json")).stdout) as Array<{
      id: string;
      status: string;
      deliverable: string | null;
      assigneeAgentId: string;
      creator: string;
      strategyId: string;
    }>;

    const leads = summary.hires.map((h) => h.agentId).sort();
    expect(tasks.map((t) => t.assigneeAgentId).sort()).toEqual(leads);
    expect(tasks.every((t) => t.status === "done" && (t.deliverable ?? "").length > 0)).toBe(true);
    expect(
      tasks.every((t) => t.creator === summary.ceo.agentId && t.strategyId === summary.approvals[0]!.id),
    ).toBe(true);

    const triggers = report.wakes.map((w) => [w.agentId === summary.ceo.agentId ? "CEO" : "lead", w.trigger]);
    expect(triggers[0]).toEqual(["CEO", "approval_decided"]);
    expect(triggers.at(-1)).toEqual(["CEO", "task_in_review"]);
    for (const lead of leads) {
      const own = report.wakes.filter((w) => w.agentId === lead);
      expect(own.map((w) => w.trigger)).toEqual(["task_assigned"]); // once per assignment
      expect(own[0]!.tasks).toEqual(tasks.filter((t) => t.assigneeAgentId === lead).map((t) => t.id));
    }
    expect(report.wakes.filter((w) => w.agentId === summary.ceo.agentId)).toHaveLength(2);
    expect(report.runs).toBeLessThanOrEqual(tasks.length + 2);
    expect(report.wakes.every((w) => w.terminal === "done")).toBe(true);
    expect(report.idle).toBe(true);
    const overlap = await checkoutsNeverOverlap(join(dir, "cadre.db"));
    expect(overlap.checkouts).toBe(tasks.length);

    // Nothing is due any more: a second run starts nothing and spends nothing.
    const again = await cli("run", "--until-idle", "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({
      runs: 0,
      idle: true,
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    console.log(
      `figures: ${tasks.length} tasks, ${report.runs} runs (bound ${tasks.length + 2}), ${overlap.checkouts} checkouts, no overlap`,
    );
  }, 180_000); // a dozen processes of the built bin: a loaded 2-core machine needs the room

  it("bad input: exit 2, one line on stderr, nothing written", async () => {
    expect((await cli("run", "--max-wakes", "0")).code).toBe(2);
    const r = await cli("tasks", "create", "--title", "x");
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    await cli("demo", "--seed", "1");
    const early = await cli("tasks", "create", "--title", "Too early", "--assignee", "CEO");
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/once the company strategy is approved/);
    const bad = await cli("tasks", "create", "--title", "A\u200bB");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/U\+200B/);
    expect(json((await cli("tasks", "list", "--json")).stdout)).toEqual([]);
  }, 120_000);
});
