// Runs the operating-phase scenarios: seeds each one's company from its base state, lays
// its tasks, schedules, settings and members' file tools on it through the company's own
// operations, lets the company work (the due-wake loop `cadre run --until-idle` runs, on the offline
// connector or a live one (connector.ts), each agent in its own workspace under a data directory of
// the run's), then applies its checks. On a live connector each scenario is held to the per-sample
// caps of `cadre eval run` (caps.ts) and the whole evaluation to --max-cost-usd (run-cost.ts).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  addConnector,
  closeTask,
  driverOf,
  createTask,
  reviewTask,
  runDue,
  setSchedule,
  type TaskResult,
  wakeIfDue,
} from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { describeProblems, parse } from "@cadre/model";
import type { Store, TaskRow } from "@cadre/store";
import { EvalDataError, parseJson } from "../data/fields.js";
import { BUILTIN_SCENARIOS_DIR, EVALS_DATA_DIR } from "../data/paths.js";
import { applySampleCaps, checkCaps, type SampleCaps } from "../runner/caps.js";
import { RunCost, type RunCostSummary } from "../runner/run-cost.js";
import { loadScenarios } from "../scenario/load.js";
import { seedScenario } from "../scenario/seed.js";
import { type CheckResult, collectOperatingTrace, type OperatingTrace, runCheck } from "./checks.js";
import {
  type OperatingConnector,
  type OperatingConnectorRequest,
  openOperatingConnector,
  teamOntoCeoConnector,
} from "./connector.js";
import { type OperatingScenario, OperatingScenarioSchema } from "./schema.js";

export const BUILTIN_OPERATING_DIR = `${EVALS_DATA_DIR}/operating`;
/** The schedules' first tick, fixed so that a scenario's clock is the same on every run. */
const FIRST_TICK = new Date("2030-01-07T09:00:00.000Z");

export interface OperatingScenarioResult {
  id: string;
  title: string;
  /** Every rule check passed (behaviour checks are reported, and counted only where measured). */
  passed: boolean;
  checks: CheckResult[];
  runs: number;
  modelCalls: number;
  /** USD of the scenario's model calls; null: some call's price is unknown. */
  costUsd: number | null;
}

export interface OperatingReport {
  /** scripted: the offline model or a stand-in; live: a model. */
  source: "scripted" | "live";
  /** The connector the companies ran on, and its model (null: the offline model). */
  connector: string;
  model: string | null;
  /** Why the behaviour checks are not measured; null: they are. */
  notMeasured: string | null;
  /** The caps each scenario was held to (live connectors only; null offline). */
  caps: SampleCaps | null;
  cost: RunCostSummary;
  /** Scenarios not started: the run's --max-cost-usd was spent. */
  skipped: Array<{ id: string; reason: string }>;
  scenarios: OperatingScenarioResult[];
  passed: boolean;
}

export interface OperatingOptions extends Partial<OperatingConnectorRequest> {
  dir?: string;
  seed?: number;
  /** Per-scenario caps on a live connector (the defaults of `cadre eval run` for any not given). */
  caps?: Partial<SampleCaps>;
  maxCostUsd?: number;
  /** Things a reader should know (the caps in force, a scenario's file tools that do not apply). */
  onNotice?: (text: string) => void;
}

/** One scenario worked through: what it left, before its checks are applied. */
interface WorkedScenario {
  scenario: OperatingScenario;
  trace: OperatingTrace;
  costUsd: number | null;
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

interface ScenarioRun {
  seed: number;
  on: OperatingConnector;
  /** Live connectors: the caps, and this scenario's share of the run's cost limit. */
  caps?: { caps: SampleCaps; usd: number };
  onNotice?: (text: string) => void;
}

async function workScenario(s: OperatingScenario, run: ScenarioRun): Promise<WorkedScenario> {
  const { seed, on } = run;
  const [base] = await loadScenarios([BUILTIN_SCENARIOS_DIR], [s.base]);
  if (!base || base.scenario.expectMode !== "operating")
    throw new UserInputError(
      `operating scenario ${s.id}: base "${s.base}" is not an operating scenario of evals/scenarios`,
    );
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-eval-operating-"));
  const store = await on.openStore(dataDir);
  try {
    const seeded = await seedScenario(store, base.scenario, { profile: "semantic", env: on.env, ...on.seed });
    const { companyId, ceoId } = seeded;
    if (on.live) await teamOntoCeoConnector(store, companyId, ceoId);
    if (run.caps) await applySampleCaps(store, companyId, run.caps.caps, run.caps.usd);
    if (s.ceoHasDelegated)
      for (const r of await store.listWakeRequests({ agentId: ceoId, status: "pending" }))
        await store.settleWakeRequest(r.id, {
          status: "dropped",
          note: "the scenario's CEO has already delegated",
        });
    await laySettingsAndTools(store, s, companyId, on, run.onNotice);
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
          wakeIfDue({
            store,
            agentId,
            checked,
            seed: `${seed}:${agentId}`,
            env: on.env,
            dataDir,
            ...(on.probes ? { probes: on.probes } : {}),
          }),
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
    let costUsd: number | null = 0;
    for (const r of trace.runs)
      for (const c of await store.listModelCalls(r.id))
        costUsd = costUsd === null || c.costUsd === null ? null : costUsd + c.costUsd;
    return { scenario: s, trace, costUsd };
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What the operator says when the scenario has it send a hand-in back. */
const OPERATOR_REASONS = "Revise the deliverable and hand it in again.";

/**
 * The scenario's company settings, and its members moved onto connectors with fewer file tools: an
 * offline one, or a copy of the live connector naming Pi's tools (a harness that runs its own loop
 * keeps its own file tools: said in a notice).
 */
async function laySettingsAndTools(
  store: Store,
  s: OperatingScenario,
  companyId: string,
  on: OperatingConnector,
  onNotice?: (text: string) => void,
): Promise<void> {
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
    if (!on.live) {
      const connector = await addConnector(store, companyId, {
        id: `offline-tools-${i + 1}`,
        kind: "offline",
        config: { piTools: [...f.tools] },
      });
      await store.setAgentModel(agent.id, agent.model, connector.id);
      continue;
    }
    const live = (await store.getConnector(companyId, agent.connectorId))!;
    if (driverOf(live.kind).harness !== "pi") {
      onNotice?.(
        `${s.id}: ${f.agent} keeps ${live.kind}'s own file tools (the scenario's ${f.tools.join(", ")} are Pi's, for Pi-routed connectors)`,
      );
      continue;
    }
    // A copy of a connector the run has already checked: the endpoint is not asked again.
    const { createdAt: _, ...copy } = live;
    const connector = await store.insertConnector({
      ...copy,
      id: `${live.id}-tools-${i + 1}`,
      config: { ...live.config, piTools: [...f.tools] },
    });
    await store.setAgentModel(agent.id, agent.model, connector.id);
  }
}

function checked(worked: WorkedScenario, notMeasured: string | null): OperatingScenarioResult {
  const { scenario: s, trace } = worked;
  const checks = s.checks.map((c) => runCheck(c, trace, notMeasured));
  return {
    id: s.id,
    title: s.title,
    passed: checks.every((c) => c.kind !== "rule" || c.pass),
    checks,
    runs: trace.runs.length,
    modelCalls: trace.modelCalls,
    costUsd: worked.costUsd,
  };
}

export async function runOperatingEval(options: OperatingOptions = {}): Promise<OperatingReport> {
  const loaded = await loadOperatingScenarios(options.dir);
  const caps = checkCaps(options.caps ?? {});
  if (options.maxCostUsd !== undefined && !(Number.isFinite(options.maxCostUsd) && options.maxCostUsd > 0))
    throw new UserInputError(`--max-cost-usd must be a number of USD > 0 (got ${options.maxCostUsd})`);
  const on = await openOperatingConnector({ ...options, env: options.env ?? process.env });
  const ledger = new RunCost(on.live ? (options.maxCostUsd ?? null) : null);
  const worked: WorkedScenario[] = [];
  const skipped: OperatingReport["skipped"] = [];
  try {
    if (on.live) options.onNotice?.(`caps ${describeScenarioCaps(caps)}`);
    for (const { scenario } of loaded) {
      const share = await ledger.reserve(caps.costUsd);
      if (share === null) {
        skipped.push({
          id: scenario.id,
          reason: `the run's --max-cost-usd of $${options.maxCostUsd} was spent before this scenario could start`,
        });
        continue;
      }
      let done: WorkedScenario | undefined;
      try {
        done = await workScenario(scenario, {
          seed: options.seed ?? 1,
          on,
          ...(on.live ? { caps: { caps, usd: share } } : {}),
          ...(options.onNotice ? { onNotice: options.onNotice } : {}),
        });
        worked.push(done);
      } finally {
        ledger.settle(share, done ? done.costUsd : share);
      }
    }
  } finally {
    await on.close();
  }
  // Decided once every run is done: a server that said it is a stand-in said so by now.
  const notMeasured = on.notMeasured();
  const scenarios = worked.map((w) => checked(w, notMeasured));
  return {
    source: notMeasured === null ? "live" : "scripted",
    connector: on.label,
    model: on.model,
    notMeasured,
    caps: on.live ? caps : null,
    cost: ledger.summary(),
    skipped,
    scenarios,
    passed: scenarios.every((s) => s.passed),
  };
}

/** The caps as `cadre eval run` prints them, each held to every run of a scenario's company. */
function describeScenarioCaps(caps: SampleCaps): string {
  return `per run of a scenario's company: ${caps.modelCalls} model calls, ${caps.toolCalls} tool calls, ${caps.tokens} tokens, $${caps.costUsd} cost`;
}
