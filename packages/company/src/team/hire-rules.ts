// The rules of a hire (C4-1) and its insertion: the hire_agent input schema — the one definition
// behind the model-facing tool, the legacy HTTP route and validation — and the checks every path
// runs inside its write transaction.
import { randomUUID } from "node:crypto";
import { type CeoMode, DEPARTMENTS, OneOf, type Static, Text } from "@cadre/model";
import type { AgentRow, ConnectorRow, StoreQueries } from "@cadre/store";
import { Type } from "typebox";
import type { ActionResult, Actor } from "../actions/actor.js";
import { refusalSentence } from "../actions/refusal.js";
import { readiness } from "../connectors/readiness.js";
import { type PinContext, pinDeclaredModel } from "../connectors/model-pin.js";
import { connectorModelProblem } from "../connectors/connector-models.js";
import { type CompanySummaryState, type ModeView, modeAfter, recordModeChange } from "../state.js";

/** The CEO's modes in which a hire can succeed (governance in code, C4-4): not while a strategy waits. */
export const HIRING_MODES = [
  "team-building",
  "strategy-drafting",
  "revising",
  "operating",
] as const satisfies readonly CeoMode[];

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

/** The hire made (C4-1), or — where the company requires approval for hires — the approval filed for it. */
export type HireAgentResult =
  | { agentId: string; name: string; role: string }
  | { approvalId: string; status: "pending"; hired: false; name: string; role: string; note: string };

export function refuseHire(field: string, why: string): ActionResult<never> {
  return {
    ok: false,
    message: `hire_agent was not run, nothing was written. ${refusalSentence(field, why)}.`,
    fields: { [field]: why },
  };
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
    return refuseHire("agent", `${actor.agentId} is not an active agent of this company`);
  if (hirer && !hirer.isCeo) return refuseHire("agent", "only the CEO may hire in this company");
  if (rules.mode && !(HIRING_MODES as readonly CeoMode[]).includes(state.mode)) {
    return refuseHire(
      "mode",
      `hiring is not available in the ${state.mode} phase (${state.modeReason}); it is available in: ${HIRING_MODES.join(", ")}`,
    );
  }
  const connector = state.connectors.find((c) => c.id === input.connectorId);
  // Readiness from the probes' last outcomes: no filesystem or network work in this transaction.
  const ready = (c: (typeof state.connectors)[number]) => readiness(c, actor.env, actor.probes);
  const readyIds = state.connectors.filter((c) => ready(c).ready).map((c) => c.id);
  if (!connector)
    return refuseHire(
      "connectorId",
      `"${input.connectorId}" is not a connector of this company; ready connectors: ${readyIds.join(", ") || "none"}`,
    );
  const connectorReadiness = ready(connector);
  if (!connectorReadiness.ready)
    return refuseHire(
      "connectorId",
      `connector "${connector.id}" is not ready (${connectorReadiness.missing}); ready connectors: ${readyIds.join(", ") || "none"}`,
    );
  // An alias gets the alias answer, naming explicit ids, before the enabled-models check (MC-6).
  const modelProblem = connectorModelProblem(connector, input.model);
  if (modelProblem?.kind === "alias") {
    return refuseHire(
      "model",
      `"${input.model}" is an alias; only explicit model ids are used. Explicit ids: ${modelProblem.candidates.join(", ")}; enabled on connector "${connector.id}": ${connector.enabledModels.join(", ")}`,
    );
  }
  if (modelProblem?.kind === "not enabled") {
    return refuseHire(
      "model",
      `"${input.model}" is not enabled on connector "${connector.id}"; allowed: ${connector.enabledModels.join(", ")}`,
    );
  }
  // enabledModels only ever hold routable ids; this guards old data written before a registry change.
  if (modelProblem) return refuseHire("model", modelProblem.message);
  // Names compare on their key (case, compatibility forms and invisible characters folded away),
  // the same key the store's unique index holds.
  const taken = state.nameTaken;
  if (taken)
    return refuseHire(
      "name",
      taken.name === input.name
        ? `"${input.name}" is already the name of an active agent (${taken.role}); choose another name`
        : `"${input.name}" reads as "${taken.name}", already the name of an active agent (${taken.role}); choose another name`,
    );
  if (state.activeCount >= state.company.settings.maxTeamSize) {
    return refuseHire(
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
  context: {
    runId: string | null;
    hiredBy: string | null;
    approvalId?: string;
    /** The company's connectors and where their probes are read: the hire pins its model (MC-6). */
    pin?: PinContext & { connectors: readonly ConnectorRow[] };
  },
): Promise<HireAgentResult> {
  const { runId, hiredBy, approvalId, pin } = context;
  const row = await tx.insertAgent(agent);
  if (pin)
    await pinDeclaredModel(
      tx,
      pin.connectors.find((c) => c.id === row.connectorId),
      row.model,
      pin,
    );
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
