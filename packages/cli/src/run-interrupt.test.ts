// SIGINT / SIGTERM while `cadre run` has a member working its task (the signal rule, on the
// operating company's command): the running wake's run ends cancelled exactly once, with the usage of
// its completed model call, said on stderr; no further wake starts; the command exits 130 / 143; the
// task is released (no run holds it) and is not resumed by itself — the operator's comment wakes its
// assignee again, and that wake finishes it. The member runs on an OFFLINE @cadre/standin server
// (the Chat Completions wire) that holds its second call, so the signal lands at a known point.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createCompany,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  refreshReadiness,
} from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore, type RunRow } from "@cadre/store";
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
  dir = await mkdtemp(join(tmpdir(), "cadre-run-signal-"));
  standIn = await startTaskStandin();
});
afterEach(async () => {
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

/** An operating company whose CTO runs on the stand-in; the CEO (offline) has yet to delegate. */
async function operatingCompany(): Promise<string> {
  await declareStandinModel(dir);
  await loadUserModels({ dataDir: dir, env: {} });
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    const company = await createCompany(store, {
      name: "Signal Co",
      goal: "Build warehouse robots.",
      connectors: [
        { kind: "openai-compatible", config: { baseUrl: standIn.baseUrl }, enabledModels: [STANDIN_MODEL] },
      ],
    });
    const ceo = (await loadCompanyState(store, company.id)).ceo.id;
    await refreshReadiness(await store.listConnectors(company.id), {});
    const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null, env: {} };
    const hired = await hireAgent(store, op, {
      name: "CTO",
      role: "CTO",
      description: "Builds.",
      connectorId: "openai-compatible",
      model: STANDIN_MODEL,
    });
    if (!hired.ok || !("agentId" in hired.value)) throw new Error(JSON.stringify(hired));
    const filed = await fileApproval(
      store,
      { ...op, agentId: ceo, via: "tool" },
      { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan" },
    );
    if (!filed.ok) throw new Error(filed.message);
    await decideApproval(store, filed.value.approvalId, "approve", null);
    return hired.value.agentId;
  } finally {
    await store.close();
  }
}

describe("a signal while cadre run works a task", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s: the running wake ends cancelled once, usage recorded, said on stderr; nothing else starts; exit %i",
    async (signal, code) => {
      const cto = await operatingCompany();
      const running = startCli(["run", "--until-idle", "--data", dir], cliEnv());
      await standIn.held(); // the CTO's first call (in progress) completed; its second is in flight
      running.child.kill(signal);
      const exited = await running.exited;
      expect(exited.code, exited.stderr).toBe(code);

      const store = await openStore({ path: join(dir, "cadre.db") });
      let taskId: string;
      try {
        const [run, ...others] = await store.listRuns({ agentId: cto });
        expect(others).toEqual([]);
        expect(exited.stderr).toContain(`run ${run!.id} cancelled by ${signal}; usage recorded`);
        expect(run).toMatchObject({
          status: "cancelled",
          trigger: "task_assigned",
          error: `cancelled by ${signal}`,
        });
        const events = await store.listRunEvents(run!.id);
        expect(events.filter((e) => e.type === "terminal").map((e) => e.data)).toEqual([
          { type: "terminal", status: "cancelled", reason: `cancelled by ${signal}` },
        ]);
        // The completed call's usage is on the run: the one call that answered (the held one,
        // aborted, reports nothing).
        const calls = events
          .map((e) => (e.data as { usage?: RunRow["usage"] }).usage)
          .filter((u): u is NonNullable<typeof u> => u !== undefined && u.input + u.output > 0);
        expect(calls).toHaveLength(1);
        expect(run!.usage).toEqual(calls[0]);
        expect(run!.usage.output).toBeGreaterThan(0);
        expect(await store.listRuns({ status: "running" })).toEqual([]);
        expect(await store.listRunningWakes()).toEqual([]);
        // The CEO's wake for the CTO's results never started (the task is not done).
        const company = (await store.listCompanies())[0]!;
        const ceo = (await store.listAgents(company.id)).find((a) => a.isCeo)!;
        expect((await store.listRuns({ agentId: ceo.id })).map((r) => r.trigger)).toEqual([
          "approval_decided",
        ]);
        const [task] = await store.listTasks(company.id, { assigneeAgentId: cto });
        expect(task).toMatchObject({ status: "in_progress", checkoutRunId: null });
        taskId = task!.id;
      } finally {
        await store.close();
      }

      // Not resumed by itself: nothing is due. The operator's comment wakes the CTO, who finishes.
      standIn.release();
      const idle = await runCliProcess(["run", "--until-idle", "--json", "--data", dir], cliEnv());
      expect(JSON.parse(idle.stdout)).toMatchObject({ runs: 0, idle: true });
      const commented = await runCliProcess(
        ["tasks", "comment", taskId, "Please go on.", "--data", dir],
        cliEnv(),
      );
      expect(commented.code, commented.stderr).toBe(0);
      const again = await runCliProcess(["run", "--until-idle", "--json", "--data", dir], cliEnv());
      expect(again.code, again.stderr).toBe(0);
      const report = JSON.parse(again.stdout) as {
        wakes: Array<{ agentId: string; trigger: string; terminal: string }>;
      };
      expect(report.wakes.filter((w) => w.agentId === cto).map((w) => [w.trigger, w.terminal])).toEqual([
        ["task_commented", "done"],
      ]);
      const after = await openStore({ path: join(dir, "cadre.db") });
      try {
        expect(await after.getTask(taskId)).toMatchObject({ status: "done", checkoutRunId: null });
      } finally {
        await after.close();
      }
      await checkoutsNeverOverlap(join(dir, "cadre.db"));
    },
    180_000,
  );
});
