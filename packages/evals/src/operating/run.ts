// Runs the operating-phase scenarios: seeds each one's company from its base state, lays
// its tasks, schedules, settings and members' file tools on it through the company's own
// operations, lets the company work (the due-wake loop `cadre run --until-idle` runs, on the offline
// connector, each agent in its own workspace under a data directory of the run's), then applies
// its checks.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  addConnector,
  closeTask,
  createTask,
  reviewTask,
  runDue,
  setSchedule,
  type TaskResult,
  wakeIfDue,
} from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { describeProblems, parse } from "@cadre/model";
import { openStore, type Store, type TaskRow } from "@cadre/store";
import { EvalDataError, parseJson } from "../data/fields.js";
import { BUILTIN_SCENARIOS_DIR, EVALS_DATA_DIR } from "../data/paths.js";
import { loadScenarios } from "../scenario/load.js";
import { seedScenario } from "../scenario/seed.js";
import { type CheckResult, collectOperatingTrace, runCheck } from "./checks.js";
import { type OperatingScenario, OperatingScenarioSchema } from "./schema.js";

export const BUILTIN_OPERATING_DIR = `${EVALS_DATA_DIR}/operating`;
/** The schedules' first tick, fixed so that a scenario's clock is the same on every run. */
const FIRST_TICK = new Date("2030-01-07T09:00:00.000Z");

export interface OperatingScenarioResult {
  id: string;
  title: string;
  /** Every rule check passed (behaviour checks on a scripted model are reported, not counted). */
  passed: boolean;
  checks: CheckResult[];
  runs: number;
  modelCalls: number;
}

export interface OperatingReport {
  source: "scripted";
  scenarios: OperatingScenarioResult[];
  passed: boolean;
}

export async function loadOperatingScenarios(
  dir = BUILTIN_OPERATING_DIR,
): Promise<Array<{ file: string; scenario: OperatingScenario }>> {
  let names: string[];
  try {
    names = (await readdir(resolve(dir))).filter((f) => f.endsWith(".json")).sort();
  } catch (error) {
    throw new UserInputError(
      `cannot read the operating scenarios directory ${dir}: ${(error as Error).message}`,
    );
  }
  const out: Array<{ file: string; scenario: OperatingScenario }> = [];
  for (const name of names) {
    const file = join(resolve(dir), name);
    const parsed = parse(OperatingScenarioSchema, parseJson(await readFile(file, "utf8"), file));
    if (!parsed.ok) throw new EvalDataError(file, "", describeProblems(parsed.problems));
    out.push({ file, scenario: parsed.value });
  }
  return out;
}

function ok(
  result: { ok: true; value: TaskResult } | { ok: false; message: string },
  what: string,
): TaskResult {
  if (!result.ok) throw new UserInputError(`${what}: ${result.message}`);
  return result.value;
}

export async function runOperatingScenario(s: OperatingScenario, seed = 1): Promise<OperatingScenarioResult> {
  const [base] = await loadScenarios([BUILTIN_SCENARIOS_DIR], [s.base]);
  if (!base || base.scenario.expectMode !== "operating")
    throw new UserInputError(
      `operating scenario ${s.id}: base "${s.base}" is not an operating scenario of evals/scenarios`,
    );
  const store = await openStore({ memory: true });
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-eval-operating-"));
  try {
    const seeded = await seedScenario(store, base.scenario, { profile: "semantic", env: {} });
    const { companyId, ceoId } = seeded;
    if (s.ceoHasDelegated)
      for (const r of await store.listWakeRequests({ agentId: ceoId, status: "pending" }))
        await store.settleWakeRequest(r.id, {
          status: "dropped",
          note: "the scenario's CEO has already delegated",
        });
    await laySettingsAndTools(store, s, companyId);
    const operator = { companyId, agentId: null, via: "system" as const, runId: null };
    const team = await store.listAgents(companyId, { status: "active" });
    const member = (name: string, what: string) => {
      const found = team.find((a) => a.name === name);
      if (!found)
        throw new UserInputError(`operating scenario ${s.id}: ${what} "${name}", who is not in the team`);
      return found;
    };
    const keys = new Map<string, string>();
    const reviews = new Map<string, Array<"accept" | "request_changes">>();
    for (const t of s.tasks ?? []) {
      const creator =
        t.createdBy === undefined
          ? operator
          : {
              ...operator,
              agentId: member(t.createdBy, `task ${t.key} created by`).id,
              via: "tool" as const,
            };
      const created = ok(
        await createTask(store, creator, {
          title: t.title,
          assignee: t.assignee,
          ...(t.blockedBy ? { blockedBy: t.blockedBy.map((k) => keys.get(k) ?? k) } : {}),
        }),
        `task ${t.key}`,
      );
      keys.set(t.key, created.taskId);
      if (t.operatorReviews) reviews.set(created.taskId, [...t.operatorReviews]);
      if (t.status === "done" || t.status === "cancelled")
        ok(
          await closeTask(store, operator, {
            taskId: created.taskId,
            status: t.status,
            ...(t.status === "done"
              ? { deliverable: t.deliverable ?? "Done before the scenario starts." }
              : {}),
          }),
          `task ${t.key}`,
        );
    }
    const before = new Map<string, TaskRow>((await store.listTasks(companyId)).map((t) => [t.id, t]));
    for (const sch of s.schedules ?? [])
      await setSchedule(
        store,
        { agentId: member(sch.agent, "schedule of").id, every: sch.every, start: FIRST_TICK.toISOString() },
        FIRST_TICK,
      );
    const now = new Date(FIRST_TICK.getTime() + (s.lookAfterMinutes ?? 0) * 60_000);
    // The scenario's own tasks are the operator's, so the operator reviews what is handed in: as the
    // scenario says for each hand-in, else it accepts, and the company runs on.
    for (let round = 0; round < 10; round++) {
      await runDue({
        store,
        companyId,
        untilIdle: true,
        maxWakes: 50,
        now: () => now,
        wake: (agentId, checked) =>
          wakeIfDue({ store, agentId, checked, seed: `${seed}:${agentId}`, env: {}, dataDir }),
      });
      const handedIn = (await store.listTasks(companyId, { statuses: ["in_review"] })).filter(
        (t) => t.creatorAgentId === null,
      );
      if (handedIn.length === 0) break;
      for (const t of handedIn) {
        const decision = reviews.get(t.id)?.shift() ?? "accept";
        ok(
          await reviewTask(store, operator, {
            taskId: t.id,
            decision,
            ...(decision === "request_changes" ? { reasons: OPERATOR_REASONS } : {}),
          }),
          `review of ${t.id}`,
        );
      }
    }
    const trace = await collectOperatingTrace(store, companyId, before, dataDir);
    const checks = s.checks.map((c) => runCheck(c, trace, true));
    return {
      id: s.id,
      title: s.title,
      passed: checks.every((c) => c.kind !== "rule" || c.pass),
      checks,
      runs: trace.runs.length,
      modelCalls: trace.modelCalls,
    };
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What the operator says when the scenario has it send a hand-in back. */
const OPERATOR_REASONS = "Revise the deliverable and hand it in again.";

/** The scenario's company settings, and its members moved onto connectors with fewer file tools. */
async function laySettingsAndTools(store: Store, s: OperatingScenario, companyId: string): Promise<void> {
  if (s.settings) {
    const company = (await store.getCompany(companyId))!;
    await store.updateCompanySettings(companyId, { ...company.settings, ...s.settings });
  }
  const agents = await store.listAgents(companyId, { status: "active" });
  for (const [i, f] of (s.fileTools ?? []).entries()) {
    const agent = agents.find((a) => a.name === f.agent && !a.isCeo);
    if (!agent)
      throw new UserInputError(
        `operating scenario ${s.id}: file tools of "${f.agent}", who is not a member of the team`,
      );
    const connector = await addConnector(store, companyId, {
      id: `offline-tools-${i + 1}`,
      kind: "offline",
      config: { piTools: [...f.tools] },
    });
    await store.setAgentModel(agent.id, agent.model, connector.id);
  }
}

export async function runOperatingEval(dir?: string, seed = 1): Promise<OperatingReport> {
  const scenarios: OperatingScenarioResult[] = [];
  for (const { scenario } of await loadOperatingScenarios(dir))
    scenarios.push(await runOperatingScenario(scenario, seed));
  return { source: "scripted", scenarios, passed: scenarios.every((s) => s.passed) };
}
