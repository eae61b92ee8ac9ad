// hire_agent (C4-1): a tool, not an HTTP call from a shell. The schema below is the one definition
// behind the model-facing tool, the legacy HTTP route and validation; the rules are code.
import { randomUUID } from "node:crypto";
import { type ToolDefinition, textOutcome, UserInputError } from "@cadre/core";
import { DEPARTMENTS, describeProblems, nameKey, OneOf, parse, type Static, Text } from "@cadre/model";
import { type AgentRow, type ApprovalRow, ConflictError, type Store, type StoreQueries } from "@cadre/store";
import { Type } from "typebox";
import { readiness } from "../connectors.js";
import { connectorModelProblem } from "../connectors/connector-models.js";
import type { ProbeBook } from "../connectors/probe-cache.js";
import { modeAllows, modesAllowing } from "../modes.js";
import { refusalSentence } from "./refusal.js";
import {
  type CompanySummaryState,
  loadCompanySummary,
  type ModeView,
  modeAfter,
  recordModeChange,
} from "../state.js";
import { recordTelemetry } from "../telemetry.js";
import { toolValidator } from "./validate.js";
import type { ActionResult, Actor } from "./actor.js";
import { runOnce, type ToolCallRef } from "./once.js";

/** The hire_agent input (C4-1): the one schema behind the model-facing tool, the legacy route and validation. */
export const hireAgentSchema = Type.Object(
  {
    name: Text({
      maxLength: 50,
      description: 'Short name of the new agent, unique in the company, e.g. "CTO".',
    }),
    role: Text({ maxLength: 100, description: "Business role title, e.g. Chief Technology Officer." }),
    description: Text({
      maxLength: 500,
      multiline: true,
      description: "One or two sentences on what this agent is responsible for.",
    }),
    connectorId: Text({
      maxLength: 64,
      description: "Id of a ready connector from the available connectors listed in your instructions.",
    }),
    model: Text({ maxLength: 128, description: "A model id enabled on that connector." }),
    department: Type.Optional(OneOf(DEPARTMENTS, { description: "The department the agent belongs to." })),
  },
  { additionalProperties: false },
);
export type HireAgentInput = Static<typeof hireAgentSchema>;

export const HIRE_AGENT_DESCRIPTION =
  "Hire a new agent into your company. It reports to you. Choose a connector and model from the available connectors in your instructions. Where the company requires approval for hires, the hire is filed for the operator's approval instead, and the result says so.";

/** The hire made (C4-1), or — where the company requires approval for hires — the approval filed for it. */
export type HireAgentResult =
  | { agentId: string; name: string; role: string }
  | { approvalId: string; status: "pending"; hired: false; name: string; role: string; note: string };

export const validateHireAgentInput = toolValidator("hire_agent", hireAgentSchema);

function refuse(field: string, why: string): ActionResult<never> {
  return {
    ok: false,
    message: `hire_agent was not run, nothing was written. ${refusalSentence(field, why)}.`,
    fields: { [field]: why },
  };
}

/**
 * The handler shared by the tool and the legacy route. Every rule is checked inside the write
 * transaction, so two concurrent hires cannot both pass the name or size checks.
 */
export async function hireAgent(
  store: Store,
  actor: Actor,
  input: HireAgentInput,
  call: ToolCallRef = {},
): Promise<ActionResult<HireAgentResult>> {
  // Once per tool call of a run (MC-10): a repeated call returns the recorded hire, hiring nobody.
  // The store's unique name key is the last word between two concurrent hires of one name: the
  // loser runs once more and reads the winner, so it gets the readable refusal below.
  const { result, replayed } = await retryOnConflict(() => hireOnce(store, actor, input, call));
  // Only after the commit, and once: telemetry never reports a hire rolled back or replayed.
  if (result.ok && !replayed && "agentId" in result.value)
    recordTelemetry("agent.hired", {
      "cadre.company_id": actor.companyId,
      "cadre.agent_id": result.value.agentId,
      "cadre.role": result.value.role,
      "cadre.via": actor.via,
    });
  return result;
}

async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return fn();
  }
}

/**
 * Every rule of a hire, checked against the company as it stands inside the caller's transaction:
 * the agent to insert, or the refusal. `mode: false` skips the mode rule (an operator's approval of
 * a filed hire is the operator's decision, whatever the CEO's mode).
 */
export async function checkHire(
  tx: StoreQueries,
  state: CompanySummaryState,
  actor: Pick<Actor, "agentId" | "via" | "companyId" | "env" | "probes">,
  input: HireAgentInput,
  rules: { mode: boolean } = { mode: true },
): Promise<ActionResult<Omit<AgentRow, "createdAt">>> {
  // The summary was read for this hirer and this name: one statement whatever the team's size.
  const hirer = state.agent && state.agent.id === actor.agentId ? state.agent : undefined;
  if (actor.agentId !== null && !hirer)
    return refuse("agent", `${actor.agentId} is not an active agent of this company`);
  if (hirer && !hirer.isCeo) return refuse("agent", "only the CEO may hire in this company");
  if (rules.mode && !modeAllows(state.mode, "hire_agent")) {
    return refuse(
      "mode",
      `hiring is not available in the ${state.mode} phase (${state.modeReason}); it is available in: ${modesAllowing("hire_agent").join(", ")}`,
    );
  }
  const connector = state.connectors.find((c) => c.id === input.connectorId);
  // Readiness from the probes' last outcomes: no filesystem or network work in this transaction.
  const ready = (c: (typeof state.connectors)[number]) => readiness(c, actor.env, actor.probes);
  const readyIds = state.connectors.filter((c) => ready(c).ready).map((c) => c.id);
  if (!connector)
    return refuse(
      "connectorId",
      `"${input.connectorId}" is not a connector of this company; ready connectors: ${readyIds.join(", ") || "none"}`,
    );
  const connectorReadiness = ready(connector);
  if (!connectorReadiness.ready)
    return refuse(
      "connectorId",
      `connector "${connector.id}" is not ready (${connectorReadiness.missing}); ready connectors: ${readyIds.join(", ") || "none"}`,
    );
  // An alias gets the alias answer, naming explicit ids, before the enabled-models check (MC-6).
  const modelProblem = connectorModelProblem(connector, input.model);
  if (modelProblem?.kind === "alias") {
    return refuse(
      "model",
      `"${input.model}" is an alias; only explicit model ids are used. Explicit ids: ${modelProblem.candidates.join(", ")}; enabled on connector "${connector.id}": ${connector.enabledModels.join(", ")}`,
    );
  }
  if (modelProblem?.kind === "not enabled") {
    return refuse(
      "model",
      `"${input.model}" is not enabled on connector "${connector.id}"; allowed: ${connector.enabledModels.join(", ")}`,
    );
  }
  // enabledModels only ever hold routable ids; this guards old data written before a registry change.
  if (modelProblem) return refuse("model", modelProblem.message);
  // Names compare on their key (case, compatibility forms and invisible characters folded away),
  // the same key the store's unique index holds.
  const taken = state.nameTaken;
  if (taken)
    return refuse(
      "name",
      taken.name === input.name
        ? `"${input.name}" is already the name of an active agent (${taken.role}); choose another name`
        : `"${input.name}" reads as "${taken.name}", already the name of an active agent (${taken.role}); choose another name`,
    );
  if (state.activeCount >= state.company.settings.maxTeamSize) {
    return refuse(
      "team",
      `the company is at its maximum team size of ${state.company.settings.maxTeamSize} active agents`,
    );
  }
  return {
    ok: true,
    value: {
      id: `agt_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
      companyId: actor.companyId,
      name: input.name,
      role: input.role,
      description: input.description,
      department: input.department ?? null,
      connectorId: connector.id,
      model: input.model,
      reportsTo: hirer?.id ?? state.ceo.id,
      isCeo: false,
      status: "active",
      via: actor.via,
    },
  };
}

/** Inserts a checked hire with its `agent.hired` activity and the CEO's mode change, in the caller's transaction. */
export async function insertHire(
  tx: StoreQueries,
  state: ModeView,
  agent: Omit<AgentRow, "createdAt">,
  context: { runId: string | null; hiredBy: string | null; approvalId?: string },
): Promise<HireAgentResult> {
  const { runId, hiredBy, approvalId } = context;
  const row = await tx.insertAgent(agent);
  // The hire's activity and any mode change it caused, in one batch; the state after the hire
  // is known without reading it back.
  await recordModeChange(tx, state, runId, modeAfter(state, { hired: row }), [
    {
      companyId: state.company.id,
      agentId: row.id,
      runId,
      type: "agent.hired",
      data: {
        agentId: row.id,
        name: row.name,
        role: row.role,
        department: row.department,
        connectorId: row.connectorId,
        model: row.model,
        via: row.via,
        hiredBy,
        ...(approvalId ? { approvalId } : {}),
      },
    },
  ]);
  return { agentId: row.id, name: row.name, role: row.role };
}

/** The approval a hire files where the company requires approval for hires (issue 18 #10). */
export async function fileHireApproval(
  tx: StoreQueries,
  state: ModeView,
  actor: Pick<Actor, "agentId" | "via" | "companyId" | "runId">,
  input: HireAgentInput,
): Promise<ActionResult<Extract<HireAgentResult, { approvalId: string }>>> {
  const key = nameKey(input.name);
  for (const pending of await tx.listApprovals(state.company.id, { type: "hire_agent", status: "pending" })) {
    const filed = hireInputOf(pending.payload);
    if (filed.ok && nameKey(filed.value.name) === key)
      return refuse(
        "name",
        `a hire of "${filed.value.name}" already waits for the operator's approval (${pending.id})`,
      );
  }
  const row = await tx.insertApproval(
    {
      id: `apr_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
      companyId: state.company.id,
      type: "hire_agent",
      title: `Hire ${input.name} (${input.role})`.slice(0, 200),
      payload: JSON.stringify(input, null, 2),
      filedByAgentId: actor.agentId,
      via: actor.via,
    },
    actor.agentId ?? "operator",
  );
  await tx.insertActivity({
    companyId: state.company.id,
    agentId: actor.agentId,
    runId: actor.runId,
    type: "approval.filed",
    data: { approvalId: row.id, type: row.type, title: row.title, via: row.via },
  });
  return {
    ok: true,
    value: {
      approvalId: row.id,
      status: "pending",
      hired: false,
      name: input.name,
      role: input.role,
      note: "This company requires the operator's approval for hires: the hire was filed for approval and nobody was hired yet. The agent is created when the operator approves it.",
    },
  };
}

/** A filed hire approval's payload, read back as a hire_agent input (and checked as one). */
export function hireInputOf(payload: string): ReturnType<typeof parse<typeof hireAgentSchema>> {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return {
      ok: false,
      problems: {
        payload: "is not a hire_agent input (JSON with name, role, description, connectorId, model)",
      },
    };
  }
  return parse(hireAgentSchema, raw);
}

function hireOnce(store: Store, actor: Actor, input: HireAgentInput, call: ToolCallRef) {
  return runOnce(
    store,
    actor,
    "hire_agent",
    input,
    call,
    async (tx): Promise<ActionResult<HireAgentResult>> => {
      // One statement whatever the team's size: the hirer, the name's holder and the counts.
      const state = await loadCompanySummary(tx, actor.companyId, {
        agentId: actor.agentId,
        name: input.name,
      });
      const checked = await checkHire(tx, state, actor, input);
      if (!checked.ok) return checked;
      // The company decides in code whether a hire needs the operator: then it is filed, not made.
      if (state.company.settings.requireHireApproval && actor.agentId !== null)
        return fileHireApproval(tx, state, actor, input);
      return {
        ok: true,
        value: await insertHire(tx, state, checked.value, { runId: actor.runId, hiredBy: actor.agentId }),
      };
    },
  );
}

export function hireAgentTool(store: Store, actor: Actor): ToolDefinition<typeof hireAgentSchema> {
  return {
    name: "hire_agent",
    label: "Hire agent",
    description: HIRE_AGENT_DESCRIPTION,
    parameters: hireAgentSchema,
    validate: validateHireAgentInput,
    async execute(input, context) {
      const result = await hireAgent(store, actor, input, { toolCallId: context.toolCallId });
      return result.ok
        ? textOutcome(JSON.stringify(result.value), false, result.value)
        : textOutcome(result.message, true, { fields: result.fields });
    },
  };
}

/**
 * Approving a filed hire creates exactly that agent, inside the decision's transaction: its recorded
 * input is read back and checked again as a hire now (connector ready, model enabled, name free,
 * team size); anything that no longer holds refuses the approval, writing nothing.
 */
export async function hireFromApproval(
  tx: StoreQueries,
  approval: ApprovalRow,
  readinessOf: { env?: NodeJS.ProcessEnv; probes?: ProbeBook } = {},
): Promise<HireAgentResult> {
  const { env, probes } = readinessOf;
  const input = hireInputOf(approval.payload);
  if (!input.ok)
    throw new UserInputError(
      `approval ${approval.id} cannot be approved: its payload is not a valid hire (${describeProblems(input.problems)}); nothing was written. Reject it instead.`,
      input.problems,
    );
  const state = await loadCompanySummary(tx, approval.companyId, {
    agentId: approval.filedByAgentId,
    name: input.value.name,
  });
  const checked = await checkHire(
    tx,
    state,
    {
      agentId: approval.filedByAgentId,
      via: approval.via,
      companyId: approval.companyId,
      ...(env ? { env } : {}),
      ...(probes ? { probes } : {}),
    },
    input.value,
    { mode: false },
  );
  if (!checked.ok)
    throw new UserInputError(
      `approval ${approval.id} cannot be approved: the hire no longer passes its checks — ${checked.message.replace(/^hire_agent was not run, nothing was written\. /, "")} Nothing was written; reject it, or fix the company and approve again.`,
      checked.fields,
    );
  return insertHire(tx, state, checked.value, {
    runId: null,
    hiredBy: approval.filedByAgentId,
    approvalId: approval.id,
  });
}
