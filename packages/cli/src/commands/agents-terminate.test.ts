// Terminating an agent never strands its open tasks. On the demo's operating company
// the operator gives a lead two tasks (one finished) and terminates it: the open one goes back to
// its creator's side — the CEO, as the operator created it — the CLI says so and how to run the wake
// it made due, `tasks list` shows no task with the gone agent, its own pending reason is cancelled,
// and `cadre run --until-idle` serves the CEO's `task_unassigned` reason.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
const cli = (...argv: string[]) => runCli([...argv, "--data", dir]);
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-terminate-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe("cadre agents terminate", () => {
  it("gives the agent's open tasks back to the CEO with a wake, says so, and the next run serves it", async () => {
    const demo = await cli("demo", "--seed", "4", "--json");
    expect(demo.code, demo.err).toBe(0);
    const summary = demo.json() as {
      companyId: string;
      ceo: { agentId: string };
      approvals: Array<{ id: string }>;
      hires: Array<{ agentId: string; name: string }>;
    };
    expect((await cli("approvals", "approve", summary.approvals[0]!.id)).code).toBe(0);
    const lead = summary.hires[0]!;
    const team = (await cli("agents", "list", "--json")).json() as Array<{ id: string; name: string }>;
    const ceoName = team.find((a) => a.id === summary.ceo.agentId)!.name;
    const open = (
      await cli("tasks", "create", "--title", "Pilot plan", "--assignee", lead.name, "--json")
    ).json();
    const closed = (
      await cli("tasks", "create", "--title", "Old note", "--assignee", lead.name, "--json")
    ).json();
    const close = await cli("tasks", "close", closed.taskId, "--deliverable", "Filed.");
    expect(close.code, close.err).toBe(0);

    const gone = await cli("agents", "terminate", lead.agentId);
    expect(gone.code, gone.err).toBe(0);
    expect(gone.out).toContain(`${open.taskId}  "Pilot plan" → ${ceoName}`);
    expect(gone.out).not.toContain(closed.taskId);
    expect(gone.out).toMatch(/now has a wake due for them: run it with `cadre run`/);
    // Its reasons waiting (the two assignments) are cancelled, not left pending for nobody.
    expect(gone.out).toMatch(/2 wake reason\(s\) that were waiting for .* are cancelled/);

    const tasks = (await cli("tasks", "list", "--json")).json() as Array<{
      id: string;
      status: string;
      assigneeAgentId: string | null;
    }>;
    expect(tasks.find((t) => t.id === open.taskId)).toMatchObject({
      status: "todo",
      assigneeAgentId: summary.ceo.agentId,
    });
    expect(tasks.find((t) => t.id === closed.taskId)).toMatchObject({
      status: "done",
      assigneeAgentId: lead.agentId,
    });
    // Terminating again changes nothing and says there is nothing left to give back.
    const again = await cli("agents", "terminate", lead.agentId, "--json");
    expect(again.json()).toMatchObject({ status: "terminated", tasksReturned: [], wakesCancelled: 0 });

    const run = await cli("run", "--until-idle", "--json");
    expect(run.code, run.err).toBe(0);
    expect(run.json()).toMatchObject({ idle: true, stillDue: [] });
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const requests = await store.listWakeRequests({ companyId: summary.companyId });
      const back = requests.filter((r) => r.trigger === "task_unassigned");
      expect(back.map((r) => [r.agentId, r.taskId, r.status])).toEqual([
        [summary.ceo.agentId, open.taskId, "taken"],
      ]);
      const ceoRun = (await store.listRuns({ agentId: summary.ceo.agentId })).find(
        (r) => r.id === back[0]!.runId,
      );
      expect(ceoRun?.status).toBe("done");
      const leads = requests.filter((r) => r.agentId === lead.agentId);
      expect(leads.map((r) => [r.status, r.note])).toEqual([
        ["dropped", `cancelled: ${lead.name} was terminated`],
        ["dropped", `cancelled: ${lead.name} was terminated`],
      ]);
      expect(await store.listRuns({ status: "running" })).toEqual([]);
      const stranded = (await store.listTasks(summary.companyId, { assigneeAgentId: lead.agentId })).filter(
        (t) => t.status !== "done" && t.status !== "cancelled",
      );
      expect(stranded).toEqual([]);
    } finally {
      await store.close();
    }
  }, 180_000);
});
