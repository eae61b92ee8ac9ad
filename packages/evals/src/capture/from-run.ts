// `cadre eval capture RUN_ID`: a recorded CEO run becomes a scenario — the company state it started
// from (rebuilt from the store, checked against the mode the run recorded, seeded once to prove it),
// the trigger that woke it, and the behaviour it showed as the expectation to avoid (labelled) or
// to hold. A user who sees a bad run makes it a regression test with one command.
import { ASSUMED_PROBES, companyTool, readiness } from "@cadre/company";
import { type AgentEvent, NotFoundError, UserInputError } from "@cadre/core";
import { type CeoMode, WAKE_TRIGGERS, type WakeTrigger } from "@cadre/model";
import type { RunRow, Store } from "@cadre/store";
import { toolCallsOf } from "../trace/collect.js";
import { SCENARIO_CONNECTOR_KINDS, type ScenarioFile } from "../scenario/schema.js";
import type { Captured, CapturedBehaviour, FaultLabel } from "./schema.js";
import { type StateAt, stateAt } from "./state-at.js";

export interface CaptureOptions {
  label?: FaultLabel;
  note?: string;
  /** The scenario's id (from the output file's name). */
  id: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

export interface CaptureResult {
  file: ScenarioFile;
  /** What a reader must know about how exact the scenario is (left-out tasks, a substituted CEO connector). */
  notices: string[];
}

/**
 * The arguments of a call that name things rather than say them, read from the tool's own schema:
 * a closed set (a department, an approval type) or an id (a connector, a model). Free text (a
 * name, a role, a strategy) varies by wording, so a repeat is never judged on it.
 */
function identifierArgs(tool: string, args: unknown): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  const props = (
    companyTool(tool)?.schema as { properties?: Record<string, Record<string, unknown>> } | undefined
  )?.properties;
  if (!props || !args || typeof args !== "object" || Array.isArray(args)) return out;
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    const prop = props[k] ?? {};
    const closed = Array.isArray(prop["anyOf"]) || Array.isArray(prop["enum"]) || "const" in prop;
    const named = /(?:^|[a-z])(?:Id|id)$|^model$/.test(k);
    if ((closed || named) && (typeof v === "string" || typeof v === "number" || typeof v === "boolean"))
      out[k] = typeof v === "string" ? v.slice(0, 200) : v;
  }
  return out;
}

async function behaviourOf(store: Store, run: RunRow, end: StateAt): Promise<CapturedBehaviour> {
  const events = (await store.listRunEvents(run.id)).map((e) => e.data as AgentEvent);
  const [agents, approvals, activity] = await Promise.all([
    store.listAgents(run.companyId),
    store.listApprovals(run.companyId),
    store.listActivity(run.companyId),
  ]);
  const mine = activity.filter((a) => a.runId === run.id);
  const idOf = (a: (typeof mine)[number], key: "agentId" | "approvalId") =>
    (a.data as Record<string, unknown> | null)?.[key];
  const hires = mine
    .filter((a) => a.type === "agent.hired")
    .map((a) => agents.find((x) => x.id === idOf(a, "agentId")))
    .filter((a) => a !== undefined);
  const filed = mine
    .filter((a) => a.type === "approval.filed")
    .map((a) => approvals.find((x) => x.id === idOf(a, "approvalId")))
    .filter((a) => a !== undefined);
  return {
    toolCalls: toolCallsOf(events).map((c) => ({
      name: c.name,
      ok: c.ok,
      args: identifierArgs(c.name, c.args),
    })),
    hires: hires.map((h) => ({
      role: h.role,
      department: h.department,
      connectorId: h.connectorId,
      model: h.model,
    })),
    approvalsFiled: filed.map((a) => ({ type: a.type })),
    modeAfter: end.mode,
    terminal: run.status === "running" ? "failed" : run.status,
  };
}

export async function captureRun(
  store: Store,
  runId: string,
  options: CaptureOptions,
): Promise<CaptureResult> {
  const run = await store.getRun(runId);
  if (!run)
    throw new NotFoundError(
      `no run ${runId} in this data directory (cadre demo and cadre wake print the ids of the runs they start)`,
    );
  if (run.status === "running")
    throw new UserInputError(`run ${runId} is still running; capture it once it has ended`);
  const [company, ceo] = await Promise.all([store.getCompany(run.companyId), store.getAgent(run.agentId)]);
  if (!company || !ceo) throw new NotFoundError(`run ${runId}: its company or agent is gone from the store`);
  if (!ceo.isCeo)
    throw new UserInputError(
      `run ${runId} woke ${ceo.name} (${ceo.role}), not the CEO: a scenario is a state the CEO is woken in`,
    );
  if (!(WAKE_TRIGGERS as readonly string[]).includes(run.trigger))
    throw new UserInputError(`run ${runId} has the trigger "${run.trigger}", which a scenario cannot replay`);

  const notices: string[] = [];
  const start = await stateAt(store, run.companyId, run.startedAt, run.id);
  if (start.mode !== run.mode)
    throw new UserInputError(
      `run ${runId} started in the ${run.mode} mode, but the state rebuilt from the store resolves to ${start.mode}: the store no longer holds the state it started from exactly, so nothing was written`,
    );
  const end = await stateAt(store, run.companyId, run.endedAt ?? new Date().toISOString());
  const tasks = (await store.listTasks(run.companyId)).filter((t) => t.createdAt <= run.startedAt);
  if (tasks.length > 0)
    notices.push(
      `${tasks.length} task(s) existed when the run started; a scenario holds no tasks, so they are left out`,
    );

  const env = options.env ?? process.env;
  const kinds = SCENARIO_CONNECTOR_KINDS as readonly string[];
  const connectors = start.connectors
    .filter((c) => kinds.includes(c.kind))
    .map((c) => {
      const baseUrl = typeof c.config["baseUrl"] === "string" ? (c.config["baseUrl"] as string) : undefined;
      return {
        id: c.id,
        kind: c.kind,
        enabledModels: c.enabledModels,
        ready: readiness(c, env, ASSUMED_PROBES).ready,
        ...(baseUrl ? { baseUrl } : {}),
      };
    });
  const left = start.connectors.filter((c) => !kinds.includes(c.kind));
  for (const m of start.team)
    if (left.some((c) => c.id === m.connectorId))
      throw new UserInputError(
        `run ${runId}: ${m.name} runs on the ${m.connectorId} connector (a harness), which a scenario cannot declare; nothing was written`,
      );
  let ceoConnectorId = ceo.connectorId;
  if (!connectors.some((c) => c.id === ceoConnectorId)) {
    if (!connectors.some((c) => c.id === "offline"))
      connectors.push({ id: "offline", kind: "offline", enabledModels: ["offline-scripted-1"], ready: true });
    ceoConnectorId = "offline";
    notices.push(
      `the CEO ran on ${ceo.connectorId} (${left.find((c) => c.id === ceo.connectorId)?.kind ?? "a connector a scenario cannot declare"}); the scenario seats it on offline, and \`eval run --connector\` chooses what it runs on`,
    );
  }
  if (left.length > 0)
    notices.push(
      `connector(s) ${left.map((c) => `${c.id} (${c.kind})`).join(", ")} left out: a scenario cannot declare a harness`,
    );

  const behaviour = await behaviourOf(store, run, end);
  if (options.label === "unintended-action" && behaviour.hires.length + behaviour.approvalsFiled.length === 0)
    throw new UserInputError(
      `run ${runId} hired nobody and filed nothing: there is no action to label unintended (wrong-tool, wrong-argument, missed-step or other may fit)`,
    );
  const captured: Captured = {
    run: {
      id: run.id,
      companyId: run.companyId,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      connectorKind: (await store.getConnector(run.companyId, ceo.connectorId))?.kind ?? ceo.connectorId,
      model: ceo.model,
    },
    capturedAt: (options.now ?? new Date()).toISOString(),
    ...(options.label ? { label: options.label } : {}),
    ...(options.note ? { note: options.note } : {}),
    expect: options.label ? "avoid" : "hold",
    behaviour,
  };
  const settings = company.settings;
  const file: ScenarioFile = {
    schemaVersion: 1,
    id: options.id,
    title: `Captured run ${run.id.slice(0, 60)}${options.label ? ` (${options.label})` : ""}`,
    description: [
      `The state ${company.name} was in when the CEO's run ${run.id} started (${run.startedAt}, ${run.mode}, woken by ${run.trigger}).`,
      options.label
        ? `Its behaviour was labelled ${options.label}: a candidate must not repeat it.`
        : "Its behaviour is the expectation a candidate must hold.",
      options.note ?? "",
    ]
      .filter((s) => s.length > 0)
      .join(" ")
      .slice(0, 2000),
    expectMode: start.mode as CeoMode,
    company: {
      name: company.name,
      goal: company.goal,
      settings: { maxTeamSize: settings.maxTeamSize, requireHireApproval: settings.requireHireApproval },
    },
    connectors,
    ceo: { connectorId: ceoConnectorId },
    team: start.team.map((m) => ({
      name: m.name,
      role: m.role,
      description: m.description,
      ...(m.department ? { department: m.department } : {}),
      connectorId: m.connectorId,
      model: m.model,
      status: m.statusThen,
      via: m.via,
    })),
    approvals: start.approvals.map((a) => ({
      type: a.type,
      title: a.title,
      payload: a.payload,
      status: a.statusThen,
      ...(a.noteThen ? { note: a.noteThen } : {}),
    })),
    trigger: run.trigger as WakeTrigger,
    captured,
  };
  return { file, notices };
}
