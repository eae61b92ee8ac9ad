// An agent's session across wakes. The store keeps, per agent, the native session the next wake
// continues (a Pi session file, a Claude Code session id, a Codex thread id) with the model,
// connector and reserve it was built for, or the handoff a fresh one starts from. This module
// decides, in code, whether a wake resumes it or starts fresh (a pending handoff, another harness,
// a changed tool list), builds the session's row once the wake ends, and holds the session lock a
// wake and a model switch share across processes: the run using the session.
import {
  type AgentEvent,
  assessModelSwitch,
  boundItems,
  buildHandoff,
  ConflictStateError,
  type HarnessSessionState,
  type PromptSegment,
  type SessionBootstrap,
  type SessionContinuation,
  toolListHash,
  type ToolShape,
  type TranscriptItem,
  type ModelInfo,
  NotFoundError,
} from "@cadre/core";
import type { ConnectorKind } from "@cadre/model";
import type {
  AgentRow,
  AgentSessionRow,
  ConnectorRow,
  NewAgentSession,
  SessionHarness,
  Store,
  StoreQueries,
} from "@cadre/store";
import { driverOf } from "./connectors/kinds/index.js";
import { changedSegments } from "./prompts/session-update.js";

/** The harness a connector kind runs in: every model-only connector runs in Pi. */
export function harnessOf(kind: ConnectorKind): SessionHarness {
  return driverOf(kind).harness;
}

/** The prompt a native session was built with: fixed for the session's lifetime (MC-3). */
export interface SessionPrompt {
  systemPrompt: string;
  segments: PromptSegment[];
  toolsHash: string;
}

export interface SessionPlan {
  continuation: SessionContinuation;
  /** The prompt the session runs with: its own when resumed, this wake's when fresh. */
  prompt: SessionPrompt;
  /** Stable segments that changed since the session began: they go in the per-call part (MC-3). */
  changed: PromptSegment[];
  /** Why the wake does not simply continue the agent's session, when it does not. */
  fresh?: string;
}

function isSessionPrompt(value: unknown): value is SessionPrompt {
  const v = value as SessionPrompt | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.systemPrompt === "string" &&
    Array.isArray(v.segments) &&
    typeof v.toolsHash === "string"
  );
}

function items(row: AgentSessionRow): TranscriptItem[] {
  return boundItems(row.digest as TranscriptItem[]);
}

/** A handoff from the agent's digest (bounded, built by code, no model call). */
export function handoffFrom(row: AgentSessionRow, reason: string): SessionBootstrap | undefined {
  const carried = items(row);
  if (carried.length === 0) return undefined;
  return {
    handoff: buildHandoff(carried),
    items: carried,
    reason,
    ...(row.sessionId !== null ? { fromSession: row.sessionId } : {}),
    ...(row.tokensInWindow !== null ? { tokensBefore: row.tokensInWindow } : {}),
  };
}

/**
 * Whether this wake continues the agent's session. Resume unless: there is none; a handoff is
 * pending (a rollover or a model switch closed the window, MC-9/MC-13); the agent moved to another
 * harness; or the tool list changed (MC-3: tools never change inside a session). A resumed session
 * keeps its own system prompt; the segments this wake would build differently are handed over in
 * the per-call part.
 */
export function planSession(input: {
  row: AgentSessionRow | undefined;
  connector: Pick<ConnectorRow, "id" | "kind">;
  model: ModelInfo;
  built: { systemPrompt: string; segments: PromptSegment[] };
  tools: readonly ToolShape[];
}): SessionPlan {
  const { row, built } = input;
  const prompt: SessionPrompt = { ...built, toolsHash: toolListHash(input.tools) };
  const fresh = (why: string, bootstrap?: SessionBootstrap): SessionPlan => ({
    continuation: {
      ...(bootstrap ? { bootstrap } : {}),
      ...(row ? { digest: items(row) } : {}),
    },
    prompt,
    changed: [],
    fresh: why,
  });
  if (!row) return { continuation: {}, prompt, changed: [], fresh: "the agent has no session yet" };
  const harness = harnessOf(input.connector.kind);
  if (row.harness !== harness || row.connectorId !== input.connector.id) {
    const why = `the agent now runs on connector "${input.connector.id}" (${harness}); its ${row.harness} session cannot continue there`;
    return fresh(why, handoffFrom(row, `${why}: a fresh session starts from the handoff`));
  }
  if (row.bootstrap) return fresh("a closed window left a handoff", row.bootstrap as SessionBootstrap);
  if (row.sessionId === null) return fresh("no native session was kept");
  const stored = isSessionPrompt(row.prompt) ? row.prompt : undefined;
  if (!stored || stored.toolsHash !== prompt.toolsHash) {
    const why = "the tool list changed (tools never change inside a session)"; // MC-3
    return fresh(why, handoffFrom(row, `${why}: a fresh session starts from the handoff`));
  }
  if (row.model !== input.model.id) {
    // A switch recorded without an assessment (the live session switched): the MC-13 rule decides here.
    const verdict = assessModelSwitch({
      harness,
      tokensInWindow: row.tokensInWindow ?? 0,
      targetContextWindow: input.model.contextWindow,
      turnRunning: false,
      remote: false,
      localHandoffAvailable: true,
      recoveryInFlight: false,
    });
    if (verdict.action !== "switch") {
      const why = `switch to ${input.model.id}: ${verdict.reason}`; // MC-13
      return fresh(why, handoffFrom(row, why));
    }
  }
  return {
    continuation: {
      resume: { id: row.sessionId, ...(row.sessionFile !== null ? { file: row.sessionFile } : {}) },
      digest: items(row),
      ...(row.tokensInWindow !== null ? { tokensInWindow: row.tokensInWindow } : {}),
    },
    prompt: stored,
    changed: changedSegments(stored.segments, built.segments),
  };
}

/** The row a new agent gets when its first wake takes the session lock. */
function blank(agent: AgentRow, connector: Pick<ConnectorRow, "id" | "kind">): NewAgentSession {
  return {
    agentId: agent.id,
    companyId: agent.companyId,
    harness: harnessOf(connector.kind),
    connectorId: connector.id,
    model: agent.model,
    sessionId: null,
    sessionFile: null,
    reserveTokens: null,
    tokensInWindow: null,
    rolledOver: false,
    bootstrap: null,
    digest: [],
    prompt: null,
    vendorTotals: null,
    runningRunId: null,
    lastRunId: null,
    previousSessionId: null,
  };
}

function fields(row: AgentSessionRow): NewAgentSession {
  const { createdAt: _c, lastUsedAt: _l, ...rest } = row;
  return rest;
}

/** A run holds the agent's session while it is running; anything else (finished, gone) holds nothing. */
async function holder(q: StoreQueries, row: AgentSessionRow | undefined): Promise<string | undefined> {
  if (!row?.runningRunId) return undefined;
  const run = await q.getRun(row.runningRunId);
  return run?.status === "running" ? run.id : undefined;
}

/** MC-13 and a second wake: refused while a run uses the agent's session (in any process). */
export async function assertSessionIdle(
  q: StoreQueries,
  agent: AgentRow,
  doing: string,
): Promise<AgentSessionRow | undefined> {
  const row = await q.getAgentSession(agent.id);
  const running = await holder(q, row);
  if (running)
    throw new ConflictStateError(
      `${agent.name}'s session is in use by run ${running}: ${doing} waits until it ends (a turn is running: no hot switch then send). If that run died with its process, the next demo, wake or serve on this store recovers it, which releases it; \`cadre sessions reset ${agent.id} --force\` releases the session at once`,
    );
  return row;
}

/** Takes the session lock for a run, in the caller's transaction; returns the row as it was. */
export async function lockSession(
  q: StoreQueries,
  agent: AgentRow,
  connector: Pick<ConnectorRow, "id" | "kind">,
  runId: string,
): Promise<AgentSessionRow | undefined> {
  const row = await assertSessionIdle(q, agent, "this wake");
  await q.putAgentSession({ ...(row ? fields(row) : blank(agent, connector)), runningRunId: runId });
  return row;
}

/** The row after the wake: what the session said about its native session, the lock released. */
export function sessionRowAfter(input: {
  agent: AgentRow;
  connector: Pick<ConnectorRow, "id" | "kind">;
  row: AgentSessionRow | undefined;
  plan: SessionPlan | undefined;
  state: HarnessSessionState | undefined;
  runId: string;
}): NewAgentSession {
  const { row, state } = input;
  const base = row ? fields(row) : blank(input.agent, input.connector);
  if (!state || !input.plan) return { ...base, runningRunId: null, lastRunId: input.runId };
  const id = state.ref?.id ?? null;
  const sameSession = id !== null && id === row?.sessionId;
  return {
    ...base,
    harness: state.harness,
    connectorId: input.connector.id,
    model: state.model,
    sessionId: id,
    sessionFile: state.ref?.file ?? null,
    reserveTokens: state.reserveTokens ?? null,
    tokensInWindow: state.tokensInWindow,
    rolledOver: state.rolledOver || (sameSession && (row?.rolledOver ?? false)),
    bootstrap: state.pendingBootstrap ?? null,
    digest: state.digest,
    prompt: input.plan.prompt,
    vendorTotals: state.vendorTotals ?? null,
    runningRunId: null,
    lastRunId: input.runId,
    // The native session closed most recently: the one a pending or consumed handoff came from.
    previousSessionId:
      state.pendingBootstrap?.fromSession ??
      (sameSession
        ? base.previousSessionId
        : (row?.sessionId ?? input.plan.continuation.bootstrap?.fromSession ?? base.previousSessionId)),
  };
}

export { fields as sessionRowFields };

/** What a stored run says about its native session (a run another process ran: a queued wake). */
export function sessionOfRun(
  events: Iterable<AgentEvent>,
  harness: SessionHarness,
): { harness: SessionHarness; id: string | null; resumed: boolean; rolledOver: boolean } {
  let id: string | null = null;
  let resumed = false;
  let rolledOver = false;
  for (const event of events) {
    if (event.type === "session") {
      if (event.action === "resumed") resumed = true;
      if (event.id !== undefined) id = event.id;
    } else if (event.type === "rollover") {
      rolledOver = true;
      if (event.toSession !== undefined) id = event.toSession;
    } else if (event.type === "context" && event.snapshot.sessionId !== undefined)
      id = event.snapshot.sessionId;
  }
  return { harness, id, resumed, rolledOver };
}

/**
 * The operator starts the agent's next session fresh (`cadre sessions reset`): the session row is
 * forgotten, with its handoff and digest, and an activity says so; one transaction. Refused while
 * a run of the agent holds the session, unless `force` says that run died with its process (its
 * row says running, but nothing runs it).
 */
export async function resetAgentSession(
  store: Store,
  agentId: string,
  options: { force?: boolean } = {},
): Promise<{ agent: AgentRow; reset: boolean; previous: AgentSessionRow | undefined }> {
  return store.transaction(async (tx) => {
    const agent = await tx.getAgent(agentId);
    if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
    const previous = options.force
      ? await tx.getAgentSession(agent.id)
      : await assertSessionIdle(tx, agent, "a reset");
    const reset = previous !== undefined && (await tx.deleteAgentSession(agent.id));
    if (reset)
      await tx.insertActivity({
        companyId: agent.companyId,
        agentId: agent.id,
        runId: null,
        type: "agent.session_reset",
        data: {
          agentId: agent.id,
          name: agent.name,
          harness: previous.harness,
          sessionId: previous.sessionId,
          ...(options.force && previous.runningRunId ? { forced: true, heldBy: previous.runningRunId } : {}),
        },
      });
    return { agent, reset, previous };
  });
}
