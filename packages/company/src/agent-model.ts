// Switching an agent's model (MC-13), shared by every path (HTTP PATCH, `cadre agents set-model`).
// The model must be an explicit id enabled on the agent's connector; a refusal names the allowed
// ones and writes nothing. A live session of the agent (a running wake in this process) is asked
// first, through its setModel — inside the session lock shared with send — and a refusal there (a
// turn is running, a recovery is in flight) is a conflict, with nothing written. Between wakes the
// agent's kept session is assessed in the same transaction that switches the model, against the
// target's window: a run holding the session (in any process) refuses the switch; at or over 90%
// of the target window the old native window is closed and a code-built handoff left for the next
// wake, which starts fresh on the new route. The agent row, its session and the activity entry
// are one transaction.
import {
  assessModelSwitch,
  ConflictStateError,
  type ModelInfo,
  type ModelSwitchVerdict,
  modelIdProblem,
  NotFoundError,
  resolveModel,
  type SessionBootstrap,
  UserInputError,
} from "@cadre/core";
import { Text } from "@cadre/model";
import type { AgentRow, StoreQueries, Store } from "@cadre/store";
import { Type } from "typebox";
import { checkInput } from "./input.js";

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

/** The agent, active, and the model allowed on its connector; throws a clear error otherwise. */
async function checked(
  q: StoreQueries,
  agentId: string,
  model: string,
): Promise<{ agent: AgentRow; target: ModelInfo }> {
  const agent = await q.getAgent(agentId);
  if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
  if (agent.status !== "active")
    throw new ConflictStateError(
      `${agent.name} (${agent.id}) is ${agent.status}; only an active agent's model can be changed`,
    );
  const connector = await q.getConnector(agent.companyId, agent.connectorId);
  if (!connector) throw new NotFoundError(`connector ${agent.connectorId} of agent ${agent.id} not found`);
  const allowed = `allowed on connector "${connector.id}": ${connector.enabledModels.join(", ") || "none"}`;
  // An alias gets the alias answer first, naming explicit ids (MC-6).
  const problem = modelIdProblem(model);
  if (problem?.kind === "alias")
    throw new UserInputError(`${problem.message}; ${allowed}`, { model: allowed });
  if (!connector.enabledModels.includes(model))
    throw new UserInputError(
      `"${model}" is not enabled on connector "${connector.id}" of ${agent.name}; ${allowed}`,
      { model: allowed },
    );
  if (problem)
    throw new UserInputError(`"${model}" is not a model Cadre can route (${problem.message})`, {
      model: allowed,
    });
  return { agent, target: resolveModel(model) };
}

export async function setAgentModel(
  store: Store,
  input: { agentId: string; model: string; live?: LiveSession | undefined },
): Promise<ModelChange> {
  const { model } = checkInput("model", Type.Object({ model: ModelId }), { model: input.model });
  input = { ...input, model };
  const { agent, target } = await checked(store, input.agentId, input.model);
  if (agent.model === target.id)
    return {
      agent,
      from: agent.model,
      changed: false,
      live: "no live session",
      session: { action: "none", reason: `${agent.name} already runs on ${target.id}` },
    };
  let live: ModelChange["live"] = "no live session";
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
    const current = (await checked(tx, input.agentId, input.model)).agent;
    const session =
      live === "no live session"
        ? await switchKeptSession(tx, current, target)
        : { action: "none" as const, reason: `the live session decided: ${live}` };
    await tx.setAgentModel(current.id, target.id);
    await tx.insertActivity({
      companyId: current.companyId,
      agentId: current.id,
      runId: null,
      type: "agent.model_changed",
      data: {
        agentId: current.id,
        name: current.name,
        connectorId: current.connectorId,
        from: current.model,
        to: target.id,
        live,
        session,
      },
    });
    return { agent: { ...current, model: target.id }, from: current.model, changed: true, live, session };
  });
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
    return { action: "switch", reason: `MC-13: ${verdict.reason}` };
  }
  const reason = `MC-13: switch to ${target.id}: ${verdict.reason}`;
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
