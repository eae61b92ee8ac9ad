// Switching an agent's model (MC-13), shared by every path (HTTP PATCH, `cadre agents set-model`).
// The model must be an explicit id enabled on the agent's connector — or on the ready connector it
// moves to (`connectorId`, the CEO included); a refusal names the allowed ones and writes nothing.
// A live session of the agent (a running wake in this process) is asked first, through its
// setModel — inside the session lock shared with send — and a refusal there (a turn is running, a
// recovery is in flight, a move to another connector) is a conflict, with nothing written. Between
// wakes the agent's kept session is assessed in the same transaction that switches the model,
// against the target's window: a run holding the session (in any process) refuses the switch; at
// or over 90% of the target window the old native window is closed and a code-built handoff left
// for the next wake, which starts fresh on the new route. A move to another connector leaves the
// kept session for the next wake, which starts fresh from its handoff (planSession). The agent row,
// its session and the activity entry are one transaction.
import {
  assessModelSwitch,
  ConflictStateError,
  type ModelInfo,
  type ModelSwitchVerdict,
  NotFoundError,
  type SessionBootstrap,
  UserInputError,
} from "@cadre/core";
import { Text } from "@cadre/model";
import type { AgentRow, ConnectorRow, StoreQueries, Store } from "@cadre/store";
import { Type } from "typebox";
import { readiness, refreshReadiness } from "./connectors/readiness.js";
import { ConnectorId } from "./connectors/connector-admin.js";
import { connectorModelInfo, connectorModelProblem } from "./connectors/connector-models.js";
import { type ProbeBook, sharedProbes } from "./connectors/probe-cache.js";
import { checkInput } from "./input.js";
import { pinDeclaredModel } from "./connectors/model-pin.js";

/** A model id as every entry point takes it (the registry and the connector decide whether it is allowed). */
export const ModelId = Text({
  maxLength: 128,
  description: "An explicit model id enabled on the agent's connector.",
});
import { assertSessionIdle, handoffFrom, sessionRowFields } from "./agent-session.js";

/** What the server knows about an agent's live session: PiAgent switches live, other harnesses do not. */
export interface LiveSession {
  readonly isRunning: boolean;
  setModel?: (target: ModelInfo) => Promise<ModelSwitchVerdict>;
}

export interface ModelChange {
  agent: AgentRow;
  from: string;
  /** The connector it ran on before, when it moved to another one. */
  fromConnectorId?: string;
  changed: boolean;
  /** What the live session did ("switch", "handoff-then-switch"), or "no live session". */
  live: Exclude<ModelSwitchVerdict["action"], "fail-closed"> | "no live session";
  /** What became of the agent's kept session (between wakes, MC-13). */
  session: SessionSwitch;
}

export interface SessionSwitch {
  /** switch: the next wake resumes it on the new model; handoff-then-switch: a fresh one starts from the handoff; none: no session kept (or the live one decided). */
  action: "switch" | "handoff-then-switch" | "none";
  reason: string;
  /** The native session closed by the handoff, and the handoff's size. */
  fromSession?: string;
  handoffBytes?: number;
}

/** The agent, active, and the model allowed on the connector it is to run on; throws a clear error otherwise. */
async function checked(
  q: StoreQueries,
  agentId: string,
  model: string,
  move: { connectorId: string | undefined; env: NodeJS.ProcessEnv; probes: ProbeBook },
): Promise<{ agent: AgentRow; connector: ConnectorRow; target: ModelInfo }> {
  const agent = await q.getAgent(agentId);
  if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
  if (agent.status !== "active")
    throw new ConflictStateError(
      `${agent.name} (${agent.id}) is ${agent.status}; only an active agent's model can be changed`,
    );
  const connectorId = move.connectorId ?? agent.connectorId;
  const connector = await q.getConnector(agent.companyId, connectorId);
  if (!connector) {
    if (move.connectorId === undefined)
      throw new NotFoundError(`connector ${agent.connectorId} of agent ${agent.id} not found`);
    const ids = (await q.listConnectors(agent.companyId)).map((c) => c.id);
    throw new UserInputError(
      `connector "${connectorId}" is not one of this company's connectors; its connectors: ${ids.join(", ") || "none"}`,
      { connectorId: `one of: ${ids.join(", ") || "none"}` },
    );
  }
  // A move to another connector needs it ready (from its probes' last outcomes: no I/O here).
  if (connector.id !== agent.connectorId) {
    const ready = readiness(connector, move.env, move.probes);
    if (!ready.ready)
      throw new UserInputError(`connector "${connector.id}" is not ready: ${ready.missing}`, {
        connectorId: `not ready: ${ready.missing}`,
      });
  }
  const problem = connectorModelProblem(connector, model);
  if (problem?.kind === "alias")
    throw new UserInputError(`${problem.message}; ${problem.allowed}`, { model: problem.allowed });
  if (problem?.kind === "not enabled")
    throw new UserInputError(
      `"${model}" is not enabled on connector "${connector.id}" of ${agent.name}; ${problem.allowed}`,
      {
        model: problem.allowed,
      },
    );
  if (problem) throw new UserInputError(`${problem.message}`, { model: problem.allowed });
  return { agent, connector, target: connectorModelInfo(connector, model) as ModelInfo };
}

export async function setAgentModel(
  store: Store,
  input: {
    agentId: string;
    model: string;
    /** Move the agent to this connector (default: it stays on its own). */
    connectorId?: string | undefined;
    live?: LiveSession | undefined;
    env?: NodeJS.ProcessEnv;
    probes?: ProbeBook;
  },
): Promise<ModelChange> {
  const clean = checkInput(
    "model",
    Type.Object({ model: ModelId, connectorId: Type.Optional(ConnectorId) }, { additionalProperties: false }),
    { model: input.model, ...(input.connectorId !== undefined ? { connectorId: input.connectorId } : {}) },
  );
  const env = input.env ?? process.env;
  const probes = input.probes ?? sharedProbes;
  const move = { connectorId: clean.connectorId, env, probes };
  // The target connector's probes run now, before the transaction reads its readiness.
  const before = await store.getAgent(input.agentId);
  if (before && clean.connectorId !== undefined && clean.connectorId !== before.connectorId) {
    const target = await store.getConnector(before.companyId, clean.connectorId);
    if (target) await refreshReadiness([target], env, probes);
  }
  const { agent, connector, target } = await checked(store, input.agentId, clean.model, move);
  const moves = connector.id !== agent.connectorId;
  if (agent.model === target.id && !moves)
    return {
      agent,
      from: agent.model,
      changed: false,
      live: "no live session",
      session: { action: "none", reason: `${agent.name} already runs on ${target.id}` },
    };
  let live: ModelChange["live"] = "no live session";
  if (moves && (input.live?.isRunning || input.live?.setModel)) {
    // A live session runs on its connector's route and harness: it moves between wakes, never mid-run.
    throw new ConflictStateError(
      `${agent.name}'s live session refused the move to connector "${connector.id}": a wake is running on "${agent.connectorId}"; an agent moves to another connector between wakes (try again when its run has ended)`,
    );
  }
  if (input.live?.setModel) {
    // MC-13: assessed against the target window inside the session's lock; never a hot switch mid-turn.
    const verdict = await input.live.setModel(target);
    if (verdict.action === "fail-closed")
      throw new ConflictStateError(
        `${agent.name}'s live session refused the switch to ${target.id}: ${verdict.reason}`,
      );
    live = verdict.action;
  } else if (input.live?.isRunning) {
    // A harness that cannot switch live: its running turn keeps its model, so refuse rather than pretend.
    throw new ConflictStateError(
      `${agent.name}'s live session refused the switch to ${target.id}: a turn is running: no hot switch then send`,
    );
  }
  return store.transaction(async (tx) => {
    const current = (await checked(tx, input.agentId, clean.model, move)).agent;
    const session =
      live !== "no live session"
        ? { action: "none" as const, reason: `the live session decided: ${live}` }
        : moves
          ? await moveKeptSession(tx, current, connector)
          : await switchKeptSession(tx, current, target);
    await tx.setAgentModel(current.id, target.id, moves ? connector.id : undefined);
    await pinDeclaredModel(tx, connector, target.id, { env, probes });
    await tx.insertActivity({
      companyId: current.companyId,
      agentId: current.id,
      runId: null,
      type: "agent.model_changed",
      data: {
        agentId: current.id,
        name: current.name,
        connectorId: connector.id,
        ...(moves ? { fromConnectorId: current.connectorId } : {}),
        from: current.model,
        to: target.id,
        live,
        session,
      },
    });
    return {
      agent: { ...current, model: target.id, connectorId: connector.id },
      from: current.model,
      ...(moves ? { fromConnectorId: current.connectorId } : {}),
      changed: true,
      live,
      session,
    };
  });
}

/**
 * A move to another connector between wakes: refused while a run holds the session; otherwise the
 * kept session stays as it is, and the next wake, on the new connector, starts a fresh session
 * from its handoff (planSession: a session never continues on another connector).
 */
async function moveKeptSession(
  tx: StoreQueries,
  agent: AgentRow,
  connector: ConnectorRow,
): Promise<SessionSwitch> {
  const row = await assertSessionIdle(tx, agent, `the move to connector "${connector.id}"`);
  if (!row || (row.sessionId === null && !row.bootstrap))
    return { action: "none", reason: "no session is kept: the next wake starts fresh on the new connector" };
  return {
    action: "none",
    reason: `moved to connector "${connector.id}": the next wake starts a fresh session from the kept one's handoff`,
  };
}

/**
 * MC-13 between wakes, inside the switch's transaction (the session lock across processes): a run
 * holding the session refuses; the kept window's last reading is assessed against the target's
 * window; danger or overflow → the old native window is closed for good and the handoff (built by
 * code from the digest, no model call) is left for the next wake, which starts fresh on the new route.
 */
async function switchKeptSession(
  tx: StoreQueries,
  agent: AgentRow,
  target: ModelInfo,
): Promise<SessionSwitch> {
  const row = await assertSessionIdle(tx, agent, `the switch to ${target.id}`);
  if (!row || (row.sessionId === null && !row.bootstrap))
    return { action: "none", reason: "no session is kept: the next wake starts fresh on the new model" };
  const verdict = assessModelSwitch({
    harness: row.harness,
    tokensInWindow: row.tokensInWindow ?? 0,
    targetContextWindow: target.contextWindow,
    turnRunning: false,
    remote: false,
    localHandoffAvailable: true,
    recoveryInFlight: false,
  });
  if (verdict.action === "fail-closed")
    throw new ConflictStateError(
      `${agent.name}'s session refused the switch to ${target.id}: ${verdict.reason}`,
    );
  const base = { ...sessionRowFields(row), model: target.id };
  if (verdict.action === "switch" || row.sessionId === null) {
    await tx.putAgentSession(base);
    return { action: "switch", reason: verdict.reason }; // MC-13
  }
  const reason = `switch to ${target.id}: ${verdict.reason}`; // MC-13
  const handoff: SessionBootstrap | undefined = handoffFrom(row, reason);
  await tx.putAgentSession({
    ...base,
    sessionId: null,
    sessionFile: null,
    bootstrap: handoff ?? null,
    previousSessionId: row.sessionId,
  });
  return {
    action: "handoff-then-switch",
    reason,
    fromSession: row.sessionId,
    ...(handoff ? { handoffBytes: Buffer.byteLength(handoff.handoff, "utf8") } : {}),
  };
}
