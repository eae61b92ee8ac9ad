// `cadre tasks create|assign|comment|show|close|list` and `cadre schedules set|list|remove`
// (SPEC §5), in-process through main(), as an operator drives them on the demo's company once
// its strategy is approved: each change answers with the task and the wakes it caused (decided in
// code), `show` has the comments, history and wakes, a finished task no longer changes, and bad input
// is exit 2 with one line that writes nothing.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
let leads: Array<{ agentId: string; name: string }>;
const cli = (...argv: string[]) => runCli([...argv, "--data", dir]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-tasks-cli-"));
  const demo = await cli("demo", "--seed", "4", "--json");
  expect(demo.code, demo.err).toBe(0);
  const summary = demo.json() as { approvals: Array<{ id: string }>; hires: typeof leads };
  leads = summary.hires;
  // The filer is named, not shown by id alone; the decision says the wake it made due.
  const shown = await cli("approvals", "show", summary.approvals[0]!.id);
  expect(shown.out).toMatch(/^filed {5}\S+ by CEO \(agt_[0-9a-f]+\) \(via tool\)$/m);
  const approved = await cli("approvals", "approve", summary.approvals[0]!.id);
  expect(approved.code).toBe(0);
  expect(approved.out).toContain(
    "CEO is woken for the decision: its wake is due now. Run it with `cadre run`",
  );
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface TaskJson {
  taskId: string;
  title: string;
  status: string;
  assignee: string | null;
  wakes: string[];
}

/** The one stderr line of a refusal (exit 2), with nothing on stdout. */
function refused(r: Awaited<ReturnType<typeof runCli>>): string {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe("");
  expect(r.err.trimEnd().split("\n")).toHaveLength(1);
  return r.err;
}

describe("cadre tasks, as the operator drives them", () => {
  it("create → assign → comment → show → close: each answers with the task and whom it wakes", async () => {
    const [first, second] = leads as [(typeof leads)[0], (typeof leads)[0]];
    const created = await cli(
      "tasks",
      "create",
      "--title",
      "Pilot plan",
      "--description",
      "For the first customer.",
      "--assignee",
      first.name,
      "--json",
    );
    expect(created.code, created.err).toBe(0);
    const task = created.json() as TaskJson;
    expect(task).toMatchObject({ title: "Pilot plan", status: "todo", assignee: first.name });
    expect(task.wakes).toEqual([first.name]);

    const assigned = (await cli("tasks", "assign", task.taskId, second.name, "--json")).json() as TaskJson;
    expect(assigned).toMatchObject({ assignee: second.name, wakes: [second.name] });
    const commented = (
      await cli("tasks", "comment", task.taskId, "Add the dates, please.", "--json")
    ).json() as TaskJson;
    expect(commented.wakes).toEqual([second.name]); // an operator's comment wakes the assignee

    const shown = (await cli("tasks", "show", task.taskId, "--json")).json() as {
      id: string;
      status: string;
      assigneeAgentId: string;
      creator: string;
      description: string;
      comments: Array<{ body: string; author: string }>;
      history: Array<{ type: string }>;
      wakes: Array<{ agentId: string; trigger: string; status: string }>;
    };
    expect(shown).toMatchObject({
      id: task.taskId,
      status: "todo",
      assigneeAgentId: second.agentId,
      creator: "operator",
      description: "For the first customer.",
    });
    expect(shown.comments.map((c) => [c.author, c.body])).toEqual([["operator", "Add the dates, please."]]);
    expect(shown.history.map((h) => h.type)).toEqual(
      expect.arrayContaining(["task.created", "task.assigned", "task.commented"]),
    );
    expect(shown.wakes.map((w) => [w.agentId, w.trigger])).toEqual(
      expect.arrayContaining([
        [first.agentId, "task_assigned"],
        [second.agentId, "task_assigned"],
        [second.agentId, "task_commented"],
      ]),
    );
    const human = await cli("tasks", "show", task.taskId);
    expect(human.code).toBe(0);
    expect(human.out).toContain("Pilot plan");
    expect(human.out).toContain("Add the dates, please.");

    // Done needs a deliverable; given here it closes the task; a finished task no longer changes.
    expect(refused(await cli("tasks", "close", task.taskId))).toMatch(/deliverable/);
    const closed = (
      await cli("tasks", "close", task.taskId, "--deliverable", "The plan, with dates.", "--json")
    ).json() as TaskJson;
    expect(closed.status).toBe("done");
    expect(closed.wakes).toEqual([]); // the operator created it: no agent to tell
    const before = (await cli("tasks", "show", task.taskId, "--json")).json();
    refused(await cli("tasks", "comment", task.taskId, "One more thing."));
    refused(await cli("tasks", "assign", task.taskId, first.name));
    expect((await cli("tasks", "show", task.taskId, "--json")).json()).toEqual(before);

    const cancelled = await cli(
      "tasks",
      "create",
      "--title",
      "Second vendor",
      "--assignee",
      first.name,
      "--json",
    );
    const other = (cancelled.json() as TaskJson).taskId;
    const gone = (await cli("tasks", "close", other, "--cancel", "--json")).json() as TaskJson;
    expect(gone).toMatchObject({ status: "cancelled", wakes: [] });

    const list = (await cli("tasks", "list", "--status", "done,cancelled", "--json")).json() as Array<{
      id: string;
      status: string;
      deliverable: string | null;
    }>;
    expect(list.map((t) => [t.id, t.status]).sort()).toEqual(
      [
        [task.taskId, "done"],
        [other, "cancelled"],
      ].sort(),
    );
    expect(list.find((t) => t.id === task.taskId)?.deliverable).toBe("The plan, with dates.");
  }, 120_000);

  it("refuses what the rules refuse, naming why; nothing is written", async () => {
    const before = (await cli("tasks", "list", "--json")).json();
    expect(refused(await cli("tasks", "create", "--title", "x", "--assignee", "Nobody Here"))).toMatch(
      /Nobody Here/,
    );
    expect(refused(await cli("tasks", "create", "--title", "x", "--blocked-by", "task_missing"))).toMatch(
      /task_missing/,
    );
    expect(refused(await cli("tasks", "create", "--title", "Line\nbreak"))).toMatch(/title/);
    expect(refused(await cli("tasks", "assign", "task_missing", leads[0]!.name))).toMatch(/task_missing/);
    expect((await cli("tasks", "list", "--json")).json()).toEqual(before);
  }, 60_000);
});

describe("cadre schedules", () => {
  it("set (every / cron with a zone), list and remove an agent's; bad ones are refused and change nothing", async () => {
    const lead = leads[0]!;
    const every = await cli("schedules", "set", lead.name, "--every", "1h", "--json");
    expect(every.code, every.err).toBe(0);
    expect(every.json()).toMatchObject({
      agentId: lead.agentId,
      everySeconds: 3600,
      cron: null,
      catchUp: "one",
    });
    const cron = await cli(
      "schedules",
      "set",
      lead.agentId,
      "--cron",
      "0 9 * * 1-5",
      "--tz",
      "Europe/Berlin",
      "--catch-up",
      "skip",
      "--json",
    );
    expect(cron.code, cron.err).toBe(0);
    expect(cron.json()).toMatchObject({
      everySeconds: null,
      cron: "0 9 * * 1-5",
      timezone: "Europe/Berlin",
      catchUp: "skip",
    });
    const listed = (await cli("schedules", "list", "--json")).json() as Array<{ agentId: string }>;
    expect(listed.map((s) => s.agentId)).toEqual([lead.agentId]); // set replaces: one per agent

    expect(refused(await cli("schedules", "set", lead.name, "--every", "5s"))).toMatch(
      /shorter than the shortest interval, 1m/,
    );
    expect(refused(await cli("schedules", "set", lead.name, "--cron", "61 * * * *"))).toMatch(/cron/);
    expect(refused(await cli("schedules", "set", lead.name, "--every", "1h", "--cron", "0 9 * * *"))).toMatch(
      /exactly one of --every DURATION or --cron EXPR/,
    );
    expect(
      refused(await cli("schedules", "set", lead.name, "--every", "1h", "--tz", "Mars/Olympus")),
    ).toMatch(/Mars\/Olympus/);
    expect((await cli("schedules", "list", "--json")).json()).toMatchObject([{ cron: "0 9 * * 1-5" }]);

    const removed = await cli("schedules", "remove", lead.name, "--json");
    expect(removed.code, removed.err).toBe(0);
    expect(removed.json()).toEqual({ agentId: lead.agentId, removed: true });
    expect((await cli("schedules", "list", "--json")).json()).toEqual([]);
  }, 60_000);
});
