// The crash case: a `cadre run` SIGKILLed while a member works its task leaves the task
// checked out by a run that recovery then ends; the next `cadre run` releases it, resumes it once
// (trigger task_resumed) and finishes it; no two runs ever hold the task at once. The member runs on
// an OFFLINE @cadre/standin server (the Chat Completions wire) that holds its second call, so the
// kill lands at a known point: the task in progress, the run mid-way.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createCompany,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  INTERRUPTED_REASON,
  refreshReadiness,
} from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkoutsNeverOverlap } from "./testing/task-checks.js";
import {
  declareStandinModel,
  STANDIN_MODEL,
  startTaskStandin,
  type TaskStandin,
} from "./testing/task-standin.js";
import { cliEnv, runCliProcess, startCli } from "./testing/spawn-cli.js";

let dir: string;
let standIn: TaskStandin;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-task-crash-"));
  standIn = await startTaskStandin();
});
afterEach(async () => {
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a SIGKILL mid-task", () => {
  it("leaves the task checked out by a run recovery ends; the next cadre run continues it exactly once", async () => {
    await declareStandinModel(dir);
    await loadUserModels({ dataDir: dir, env: {} });
    const store = await openStore({ path: join(dir, "cadre.db") });
    let cto: string;
    let taskId: string;
    try {
      const company = await createCompany(store, {
        name: "Crash Co",
        goal: "Build warehouse robots.",
        connectors: [
          {
            kind: "openai-compatible",
            config: { baseUrl: standIn.baseUrl },
            enabledModels: [STANDIN_MODEL],
          },
        ],
      });
      const ceo = (await loadCompanyState(store, company.id)).ceo.id;
      // hire_agent reads readiness from the probes' outcomes (never probing in its transaction).
      await refreshReadiness(await store.listConnectors(company.id), {});
      const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null, env: {} };
      const hired = await hireAgent(store, op, {
        name: "CTO",
        role: "CTO",
        description: "Builds.",
        connectorId: "openai-compatible",
        model: STANDIN_MODEL,
      });
      expect(hired, JSON.stringify(hired)).toMatchObject({ ok: true });
      cto = (hired as { value: { agentId: string } }).value.agentId;
      const filed = await fileApproval(
        store,
        { ...op, agentId: ceo, via: "tool" },
        { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan" },
      );
      await decideApproval(
        store,
        (filed as { value: { approvalId: string } }).value.approvalId,
        "approve",
        null,
      );
    } finally {
      await store.close();
    }
    // The offline CEO delegates to the CTO; the CTO (on the stand-in) starts, and its next call hangs.
    const first = startCli(["run", "--until-idle", "--data", dir], cliEnv());
    await standIn.held();
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const check = await openStore({ path: join(dir, "cadre.db") });
    try {
      const [task] = await check.listTasks((await check.listCompanies())[0]!.id, { assigneeAgentId: cto });
      taskId = task!.id;
      expect(task!.status).toBe("in_progress");
      const holder = await check.getRun(task!.checkoutRunId!);
      expect(holder).toMatchObject({ agentId: cto, status: "running" });
    } finally {
      await check.close();
    }

    standIn.release();
    const second = await runCliProcess(["run", "--until-idle", "--json", "--data", dir], cliEnv());
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/recovered run .*the process running it stopped/);
    const report = JSON.parse(second.stdout) as {
      wakes: Array<{ agentId: string; trigger: string; terminal: string; tasks: string[] }>;
    };
    const resumed = report.wakes.filter((w) => w.agentId === cto);
    expect(resumed.map((w) => [w.trigger, w.tasks, w.terminal])).toEqual([
      ["task_resumed", [taskId], "done"],
    ]);

    const after = await openStore({ path: join(dir, "cadre.db") });
    try {
      const task = await after.getTask(taskId);
      expect(task).toMatchObject({
        status: "done",
        checkoutRunId: null,
        deliverable: "Finished after the interruption.",
      });
      const runs = await after.listRuns({ agentId: cto });
      expect(runs.map((r) => [r.status, r.trigger, r.error])).toEqual([
        ["failed", "task_assigned", INTERRUPTED_REASON],
        ["done", "task_resumed", null],
      ]);
      expect(await after.listRuns({ status: "running" })).toEqual([]);
    } finally {
      await after.close();
    }
    await checkoutsNeverOverlap(join(dir, "cadre.db"));
  }, 180_000); // two `cadre run` processes and a stand-in: a loaded 2-core machine needs the room
});
