// The wake runner: mode → cue + system prompt → core session → events persisted and streamed →
// usage recorded. Code decides the mode, the trigger and the governance; the model only acts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  addUsage,
  emptyUsage,
  type AgentEvent,
  type BaseAgent,
  ConflictStateError,
  type HarnessSessionState,
  resolveModel,
  type TerminalStatus,
  type ToolDefinition,
  type Usage,
  UserInputError,
  NotFoundError,
  errorMessage,
} from "@cadre/core";
// The offline connector's script and fault rehearsal (`@cadre/core/testing`), passed through to the session.
import type { FaultName, Script } from "@cadre/core/testing";
import type { CeoMode, PromptProfile, WakeTrigger } from "@cadre/model";
import {
  type AgentRow,
  actingStore,
  type AgentSessionRow,
  ConflictError,
  type ConnectorRow,
  type NewRunEvent,
  type RunRow,
  type SessionHarness,
  type Store,
  type StoreQueries,
  type WakeRequestRow,
  type WakeRow,
} from "@cadre/store";
import { driverOf } from "./connectors/kinds/index.js";
import { flushTracing } from "./tracing/otel.js";
import { startRunTrace } from "./tracing/run-trace.js";
import { harnessOf, lockSession, planSession, type SessionPlan, sessionRowAfter } from "./agent-session.js";
import { perCallPrompt } from "./prompts/session-update.js";
import { newId } from "./companies.js";
import { WakeLease } from "./lease.js";
import { thisProcess } from "./recovery/processes.js";
import { lossOf, recoverLostRuns } from "./recovery/recover.js";
import { reconcileLostCodexRun } from "./recovery/codex-usage.js";
import { buildAgentPrompt, type ModeDocumentEdit } from "./prompts/build.js";
import { modelFingerprintDrift, refreshReadiness } from "./connectors/readiness.js";
import { type ProbeBook, sharedProbes } from "./connectors/probe-cache.js";
import { connectorModelInfo } from "./connectors/connector-models.js";
import { DriftWatch } from "./model-drift.js";
import { cueTokenCount, decideCeoMode, memberCue } from "./prompts/cues.js";
import { firstTurn, workBriefing } from "./work/briefing.js";
import { releaseRunWork } from "./work/release.js";
import { postDelegatedReport } from "./messages/thread.js";
import { NothingDueError, startWork, type WorkStart } from "./work/start.js";
import { inferTrigger } from "./work/trigger.js";
import { createSession, requireWrappable, type SessionInput } from "./session.js";
import { agentWorkspace } from "./team/workspace-lifecycle.js";
import { workspaceOf } from "./team/workspace.js";
import { operatorActionsIn } from "./modes.js";
import { loadCompanyState } from "./state.js";
import { profileDriver } from "./profiles/registry.js";
import type { ProfileRun } from "./profiles/types.js";
import { assertBudgetRoom, RunBudget, type RunStop, type SettledCall } from "./budgets/run-budget.js";
import { companyPrices } from "./budgets/prices.js";
import { secretsRedactor } from "./secrets.js";

/** Wake reasons that bring delegated work back to the CEO: handed in for its review, or done. */
const DELEGATED_BACK: ReadonlySet<string> = new Set(["task_in_review", "task_done"]);
export interface WakeOptions {
  store: Store;
  agentId: string;
  /**
   * Default: the first, in precedence order, of the agent's due wake requests that this wake takes
   * (work/due.ts), else inferred (a decision since the agent's last run → approval_decided, else routine).
   */
  trigger?: WakeTrigger;
  /** Data directory; agents' working folders (MEMORY.md) live under it. */
  dataDir?: string;
  seed?: number | string;
  script?: Script;
  env?: NodeJS.ProcessEnv;
  /**
   * Where connector readiness reads its probes' outcomes (default the process's cache). The wake
   * refreshes the company's stale probes before it builds the prompt, outside every transaction.
   */
  probes?: ProbeBook;
  /** Called for every event as it happens, before it is persisted. */
  onEvent?: (event: AgentEvent) => void;
  /** Called once the run row exists (so a caller can show or cancel it). */
  onStart?: (info: { run: RunRow; cue: string; cueTokens: number; mode: CeoMode }) => void;
  /** Called with the live session before its turn starts (the server's model switch reaches it, MC-13). */
  onSession?: (session: BaseAgent) => void;
  /** Prompt profile of this wake (C4-7); default: the company's settings.profile. Members always run semantic. */
  profile?: PromptProfile;
  /** Base URL of a running Cadre API, for a profile whose CEO acts over HTTP (ProfileDriver.needsApi). */
  apiUrl?: string;
  /** Aborting cancels the run; it still ends with exactly one terminal event (`cancelled`). */
  signal?: AbortSignal;
  /** Failure rehearsal on the offline connector (`--faults`): faults injected at the provider boundary. */
  faults?: readonly FaultName[];
  /** Wraps the CEO's or member's model call (evals' cassettes); Pi-routed connectors only (see session.ts). */
  wrapStreamFn?: SessionInput["wrapStreamFn"];
  /**
   * Wraps a Claude Code or Codex session (evals' harness cassettes; see session.ts). A Pi-routed
   * session never reaches it: its model calls go through wrapStreamFn.
   */
  wrapHarness?: SessionInput["wrapHarness"];
  /** Evals only: a deliberately broken mode document (evals/runner/breaks.ts); the locked texts stay as they are. */
  modeDocument?: ModeDocumentEdit;
  /** Evals only: rewrites the CEO's initial turn (a mutated cue, evals/sensitivity); the locked cues stay as they are. */
  cue?: (mode: CeoMode, cue: string) => string;
  /**
   * Evals only: changes the tools the CEO's session is given (a mutated offer or schema, as a code
   * change would make it; evals/sensitivity). The registry stays as it is.
   */
  toolOffer?: (mode: CeoMode, tools: readonly ToolDefinition[]) => ToolDefinition[];
  /** argv prefix that starts the cadre CLI, for Codex's `cadre mcp` (default: this process, when it is the cadre CLI). */
  cadreCommand?: readonly string[];
  /**
   * The store given is a wake lease's view (a queue worker's, which claimed the wake): the run is
   * held by that lease. Otherwise the wake takes a lease of its own (one running wake per agent,
   * across processes), renews it while it runs and releases it with the run's end.
   */
  underLease?: boolean;
  /** Length of the wake's own lease (default 30 s): a process elsewhere that stops renewing it loses the run. */
  leaseMs?: number;
}

/** The agent already runs a wake (in this process or another); nothing was written. HTTP 409. */
export class AgentBusyError extends ConflictStateError {
  constructor(
    agent: AgentRow,
    readonly wake: WakeRow,
  ) {
    const holder = wake.owner
      ? `process ${wake.owner.pid} on ${wake.owner.host}`
      : `worker ${wake.workerId ?? "unknown"}`;
    super(
      `${agent.name} (${agent.id}) is already running${wake.runId ? ` run ${wake.runId}` : " a wake"} (${holder}, since ${wake.createdAt}); ` +
        "one wake per agent runs at a time, so that two runs never act at once. Wait for it to end, or stop that process, then wake again.",
    );
    this.name = "AgentBusyError";
  }
}

const DEFAULT_LEASE_MS = 30_000;

/**
 * Takes a lease of the wake's own, inserts its run under it and takes the agent's session lock for
 * it, in one transaction: the agent's one running wake, on SQLite as on PostgreSQL. A wake in the
 * way whose process is gone is recovered first; one still held refuses this wake (AgentBusyError),
 * writing nothing.
 */
async function claimRun(
  store: Store,
  agent: AgentRow,
  connector: Pick<ConnectorRow, "id" | "kind">,
  runId: string,
  start: (tx: StoreQueries) => Promise<WorkStart>,
  leaseMs: number,
): Promise<{ lease: WakeLease; started: WorkStart; row: AgentSessionRow | undefined }> {
  const owner = thisProcess();
  const lease = new WakeLease(store, newId("wake"), `${owner.host}:${owner.pid}:${runId}`, leaseMs);
  const attempt = () =>
    store.transaction(
      async (tx) => {
        const claimed = await tx.claimWake({
          id: lease.wakeId,
          companyId: agent.companyId,
          agentId: agent.id,
          workerId: lease.workerId,
          leaseUntil: lease.leaseUntil(),
          owner,
        });
        if (claimed.outcome !== "claimed") return { busy: claimed.wake };
        const started = await start(tx);
        await tx.setWakeRun(lease.wakeId, lease.workerId, runId);
        return { started, session: await lockSession(tx, agent, connector, runId) };
      },
      { isolation: "read committed" },
    );
  let recovered = false;
  for (let tries = 0; ; tries++) {
    let result: { started: WorkStart; session: AgentSessionRow | undefined } | { busy: WakeRow };
    try {
      result = await attempt();
    } catch (error) {
      // A concurrent claim committed first (the unique index said so): look again at what it wrote.
      if (error instanceof ConflictError && tries < 3) continue;
      throw error;
    }
    if ("started" in result) {
      lease.runId = runId;
      return { lease, started: result.started, row: result.session };
    }
    if (!recovered && lossOf(result.busy)) {
      // What stands in the way is a wake whose process is gone: end it now (which releases the
      // agent's session it held) rather than refuse.
      recovered = true;
      await recoverLostRuns(store);
      continue;
    }
    throw new AgentBusyError(agent, result.busy);
  }
}

export interface WakeResult {
  run: RunRow;
  cue: string;
  cueTokens: number;
  modeBefore: CeoMode;
  modeAfter: CeoMode;
  terminal: TerminalStatus;
  /** The run's usage (core's counters); edges that document another shape map it there (the CLI's --json). */
  usage: Usage;
  /** Wire-only replays of a failed user message (MC-10) and window rollovers (MC-9) during the run. */
  replays: number;
  rollovers: number;
  /** The wake requests the run took (OP-1: every due one of the agent, coalesced into this wake). */
  requests: WakeRequestRow[];
  /** The native session the run ran in (SPEC §5): its id, whether it continued the agent's, whether it rolled over. */
  session: WakeSession;
  /** Why code stopped the run: "budget" (the company's or an agent's budget) or "run_cap" (one of the run's caps, named in the run's error); else null. */
  stopReason: RunStop["reason"] | "model_drift" | null;
}

export interface WakeSession {
  harness: SessionHarness;
  /** The Pi session id, Claude Code session id or Codex thread id; null when none was started. */
  id: string | null;
  /** The run continued the agent's session from an earlier wake. */
  resumed: boolean;
  /** The run's window rolled over, or began from a handoff a closed window left (MC-9, MC-13). */
  rolledOver: boolean;
}

async function readMemoryIndex(dataDir: string | undefined, agentId: string): Promise<string | null> {
  if (!dataDir) return null;
  try {
    return await readFile(join(dataDir, "agents", agentId, "MEMORY.md"), "utf8");
  } catch {
    return null;
  }
}

const FLUSH_AT = 64;
// A usage event is written as it arrives, with the run's totals: a run whose process dies shows
// every model call that completed. The native session is written as soon as it is named: a run
// lost with its process is reconciled from it (a Codex rollout) by the agent's next wake.
const FLUSH_ON = new Set<AgentEvent["type"]>([
  "usage",
  "tool_result",
  "turn_end",
  "error",
  "terminal",
  "session",
]);

export async function wakeAgent(options: WakeOptions): Promise<WakeResult> {
  return (await wake(options, false)) as WakeResult;
}

/**
 * Wakes the agent only for due work (a pending wake request whose reason still holds, OP-1):
 * undefined, with nothing written, when it has none. `cadre run`, the schedules and the workers wake
 * agents this way.
 */
export function wakeIfDue(options: WakeOptions): Promise<WakeResult | undefined> {
  return wake(options, true);
}

async function wake(options: WakeOptions, onlyIfDue: boolean): Promise<WakeResult | undefined> {
  const { store } = options;
  // The memory index is read on the thread pool while the store reads run (it never fails: a
  // missing or unreadable file is no index); awaited where the prompt needs it.
  const memoryRead = readMemoryIndex(options.dataDir, options.agentId);
  const agent = await store.getAgent(options.agentId);
  if (!agent) throw new NotFoundError(`agent ${options.agentId} not found`);
  if (agent.status !== "active")
    throw new UserInputError(
      `agent ${agent.name} (${agent.id}) is ${agent.status}; only active agents can be woken`,
    );
  const state = await loadCompanyState(store, agent.companyId);
  // Governance in code (C4-4): the team's work needs an approved strategy.
  if (!agent.isCeo && state.mode !== "operating") {
    throw new UserInputError(
      `${agent.name} cannot start work yet: the company strategy is not approved (CEO phase: ${state.mode}). Approve the strategy first.`,
    );
  }
  const connector = state.connectors.find((c) => c.id === agent.connectorId);
  if (!connector) throw new NotFoundError(`connector ${agent.connectorId} of agent ${agent.id} not found`);
  if (options.faults?.length && !driverOf(connector.kind).rehearsesFaults) {
    throw new UserInputError(
      `--faults rehearses failures on the offline connector only; ${agent.name} runs on "${connector.id}" (${connector.kind})`,
    );
  }
  if (options.wrapStreamFn && !options.wrapHarness) requireWrappable(connector, agent.name);
  // A budget with no room refuses the wake before anything is written (OP-3).
  await assertBudgetRoom(store, agent);
  // The operator's "start team building" is offered only where it fits (modeOffer): anywhere else
  // its cue would contradict the mode, so it is refused before anything is written. (Only the
  // caller names it: a wake request's trigger or an inferred one never is.)
  if (
    options.trigger === "start_team_building" &&
    !(agent.isCeo && operatorActionsIn(state.mode).includes(options.trigger))
  ) {
    throw new UserInputError(
      agent.isCeo
        ? `start team building is offered only while the CEO is in team-building; the CEO is in ${state.mode} (${state.modeReason}). Wake the CEO without a trigger instead.`
        : `start team building is the CEO's trigger; ${agent.name} is not the CEO. Wake it without a trigger instead.`,
    );
  }
  // The profile is settled before anything is written: a wake its profile cannot run (e.g. one
  // that needs an API and was given none) fails here.
  const profile: PromptProfile =
    options.profile ?? (agent.isCeo ? state.company.settings.profile : "semantic");
  // One decision per wake (C4-4): the mode, its mode document (the profile's documents: a faithful
  // rollback, C4-7) and its cues come from one decideCeoMode; the trigger is chosen in the claim's
  // transaction (work/start.ts) and the cue is that decision's for it, unless the profile sends an
  // initial turn of its own.
  const decision = decideCeoMode(state.modeState, profile);
  const mode = decision.mode;
  const byProfile = profileDriver(profile).plan({ agent, apiUrl: options.apiUrl });
  const plainCue = (trigger: WakeTrigger) =>
    byProfile.cue ?? (agent.isCeo ? decision.cueFor(trigger) : memberCue(agent.role, trigger));
  const cueOf = (trigger: WakeTrigger) =>
    agent.isCeo && options.cue ? options.cue(mode, plainCue(trigger)) : plainCue(trigger);
  const memoryIndex = await memoryRead;
  // Readiness in the prompt, the session and hire_agent is computed against the wake's environment,
  // from probe outcomes refreshed now (only the stale ones run), never inside a transaction (C4-9).
  const probes = options.probes ?? sharedProbes;
  await refreshReadiness(state.connectors, options.env ?? process.env, probes);
  const prompt = buildAgentPrompt({
    state,
    agent,
    mode: decision,
    memoryIndex,
    probes,
    ...(options.env ? { env: options.env } : {}),
    ...(options.modeDocument ? { modeDocument: options.modeDocument } : {}),
  });

  // Every key of the wake's environment: no provider text that echoes one is stored or shown (issue 28 #5).
  const redact = secretsRedactor(state.connectors, options.env ?? process.env);
  const runId = newId("run");
  // The run row, its trigger and cue, and the due work it takes: one transaction (work/start.ts).
  const start = startWork({
    agent,
    run: { id: runId, companyId: agent.companyId, agentId: agent.id, mode, profile },
    ...(options.trigger ? { explicit: options.trigger } : {}),
    inferred: (q) => inferTrigger(q, agent.companyId, agent.id),
    cueOf,
    onlyIfDue,
  });
  // From here on every write of the run goes through a lease (its own, or the worker's that holds
  // the wake): a process cut off past its lease writes nothing to a run recovery has ended. The
  // run, its wake and the agent's session lock are one write: a second wake of the agent, or a
  // model switch, is refused while this run holds the session (MC-13), and nothing is written then.
  let lease: WakeLease | undefined;
  let started: WorkStart;
  let row: AgentSessionRow | undefined;
  try {
    if (options.underLease) {
      // The lease's view records the run with the worker's wake inside this transaction.
      ({ started, row } = await store.transaction(
        async (tx) => {
          const begun = await start(tx);
          return { started: begun, row: await lockSession(tx, agent, connector, runId) };
        },
        { isolation: "read committed" },
      ));
    } else {
      ({ lease, started, row } = await claimRun(
        store,
        agent,
        connector,
        runId,
        start,
        options.leaseMs ?? DEFAULT_LEASE_MS,
      ));
      lease.startHeartbeat();
    }
  } catch (error) {
    if (error instanceof NothingDueError) return undefined;
    throw error;
  }
  const { run, cue } = started;
  // Its spans, when OpenTelemetry export is on (tracing/): one tree per run, from its own events.
  const trace = startRunTrace({
    runId,
    companyId: agent.companyId,
    agentId: agent.id,
    agentName: agent.name,
    provider: connector.kind,
    model: agent.model,
    trigger: run.trigger,
    taskIds: [...new Set(started.taken.map((r) => r.taskId).filter((t): t is string => t !== null))],
    causes: started.taken.map((r) => r.cause),
    cue,
  });
  // The run's own writes (its tools', its ledger's, its end) are its agent's in the audit log.
  const runStore = actingStore(lease ? lease.view() : store, { type: "agent", agentId: agent.id, runId });
  const cueTokens = cueTokenCount(cue);

  const usage = emptyUsage();
  let terminal: TerminalStatus = "failed";
  let replays = 0;
  let rollovers = 0;
  let failure: string | null = null;
  // The texts the agent wrote after its last tool call: its closing report.
  let closing: string[] = [];
  let seq = 0;
  let pending: NewRunEvent[] = [];
  let usageChanged = false;
  // Every model call is reserved against the budgets first and settled with its usage (OP-3).
  const budget = await RunBudget.open(runStore, agent, runId, companyPrices(state.company));
  const drift = new DriftWatch(agent.model, state.company.settings.onModelDrift ?? "warn");
  // The model under the declared id may have been replaced since it was declared (an Ollama pull
  // re-pointed the tag): read from the probes refreshed above, before the run's first call (MC-6).
  const replaced = modelFingerprintDrift(connector, agent.model, options.env ?? process.env, probes);
  if (replaced) {
    const event = drift.seeFingerprint(replaced);
    pending.push({ runId, companyId: agent.companyId, seq: seq++, type: event.type, data: event });
    budget.unpriceAll();
  }
  let settling: SettledCall[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    if (!usageChanged) return void (await runStore.appendRunEvents(batch));
    // The usage events and the run's totals including them: one transaction, so the two never differ.
    usageChanged = false;
    const totals = { ...usage };
    const calls = settling;
    settling = [];
    // The usage events, the run's totals and the ledger's settlement of those calls: one transaction.
    await runStore.transaction(
      async (tx) => {
        await tx.appendRunEvents(batch);
        await tx.setRunUsage(runId, totals);
        await budget.settle(tx, calls);
      },
      { isolation: "read committed" },
    );
    budget.settled();
  };
  let profileRun: ProfileRun | undefined;
  let cancel: (() => void) | undefined;
  const signal =
    lease && options.signal
      ? AbortSignal.any([options.signal, lease.signal])
      : (lease?.signal ?? options.signal);
  let thrown: unknown;
  let session: BaseAgent | undefined;
  let plan: SessionPlan | undefined;
  let native: HarnessSessionState | undefined;
  let ranIn: string | undefined;
  let wallTimer: NodeJS.Timeout | undefined;
  try {
    // Inside: whatever the caller's callback throws ends the run (failed), never leaves it running.
    options.onStart?.({ run, cue, cueTokens, mode });
    if (replaced) {
      options.onEvent?.(pending.at(-1)!.data as AgentEvent);
      await flush(); // the run's first event, written at once (a feed follower learns it started)
    }
    // Refused before any call: the company does not run a model replaced under its id.
    const refused = drift.stop;
    if (refused) throw new DriftRefused(`${refused.reason}: ${refused.message}`);
    // The agent's last run, lost with its process on Codex, has what Codex spent booked first (once).
    if (connector.kind === "codex")
      await reconcileLostCodexRun(runStore, {
        agent,
        session: row,
        env: options.env ?? process.env,
        before: run.startedAt,
        prices: companyPrices(state.company),
      });
    // The profile's tools by role and mode, and what its session needs (e.g. a token and a shell).
    profileRun = await byProfile.open({
      store: runStore,
      agent,
      runId,
      mode,
      probes,
      ...(options.env ? { env: options.env } : {}),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    });
    // A harness that calls the model itself cannot have its next call refused before it is sent:
    // once code stopped its run, the tools it asks for are refused as well (nothing more happens).
    const enforcement = driverOf(connector.kind).budget;
    const given =
      agent.isCeo && options.toolOffer ? options.toolOffer(mode, profileRun.tools) : profileRun.tools;
    const tools: readonly ToolDefinition[] = budget.wrapTools(given, {
      refuseAfterStop: enforcement !== "before-each-call",
    });
    // Resume the agent's session, or start fresh (and why): decided in code (agent-session.ts).
    // A declared local model's window comes from its connector (the registry does not know it).
    const model = connectorModelInfo(connector, agent.model) ?? resolveModel(agent.model);
    plan = planSession({ row, connector, model, built: prompt, tools });
    session = createSession({
      sessionId: runId,
      agent,
      connector,
      systemPrompt: plan.prompt.systemPrompt,
      segments: plan.prompt.segments,
      continuation: plan.continuation,
      tools,
      seed: options.seed ?? `${agent.id}:${runId}`,
      ...(options.script ? { script: options.script } : {}),
      ...(options.faults?.length ? { faults: options.faults } : {}),
      ...(options.env ? { env: options.env } : {}),
      probes,
      ...(options.wrapStreamFn ? { wrapStreamFn: options.wrapStreamFn } : {}),
      ...(options.wrapHarness ? { wrapHarness: options.wrapHarness } : {}),
      guardStreamFn: (inner) => budget.wrapStreamFn(inner),
      redact,
      // Every harness works in the agent's workspace; Codex starts `cadre mcp` on this data dir and run.
      workspace: workspaceOf(agentWorkspace(state.company, agent, options.dataDir)),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.cadreCommand ? { cadreCommand: options.cadreCommand } : {}),
      runId,
    });
    options.onSession?.(session);
    // The per-call part (MC-3): what changed in the instructions since the session began, the cue,
    // then what the agents wrote about the work, as data.
    const briefing = !profileRun.briefing
      ? ""
      : await workBriefing(store, {
          agent,
          agents: state.activeAgents,
          strategy: mode === "operating" ? state.latestStrategy : null,
          taken: started.taken,
        });
    const events = session.send(perCallPrompt(firstTurn(cue, briefing), plan.changed));
    const live = session;
    // The abort's reason, when it is one (e.g. "cancelled by SIGINT"), becomes the terminal's.
    cancel = () => live.cancel(typeof signal?.reason === "string" ? signal.reason : undefined);
    if (signal?.aborted) cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    let stopping = false;
    // The run's wall-time cap holds whatever the run waits on (a harness retrying, a slow loop):
    // at the cap the session is cancelled (Claude Code interrupted, Codex's exec stopped), and the
    // calls answered until then are booked as they are for any other stop.
    const wallSeconds = budget.caps.maxWallSeconds;
    if (wallSeconds !== null)
      wallTimer = setTimeout(() => {
        const stop = budget.wallTimeReached();
        if (!stop || stopping) return;
        stopping = true;
        live.cancel(`${stop.reason}: ${stop.message}`);
      }, wallSeconds * 1000);
    let servedThisCall: string | undefined;
    for await (const raw of events) {
      let event = raw;
      if (event.type === "terminal" && !budget.stop && drift.stop) {
        const reasonEvent: AgentEvent = {
          type: "error",
          message: drift.stop.message,
          code: drift.stop.reason,
        };
        options.onEvent?.(reasonEvent);
        pending.push({
          runId,
          companyId: agent.companyId,
          seq: seq++,
          type: reasonEvent.type,
          data: reasonEvent,
        });
        event = { type: "terminal", status: "failed", reason: `${drift.stop.reason}: ${drift.stop.message}` };
      }
      if (event.type === "terminal" && budget.stop) {
        // Code stopped the run: say why, once, in a reason event before the run's one terminal.
        const reasonEvent: AgentEvent = {
          type: "error",
          message: budget.stop.message,
          code: budget.stop.reason,
        };
        options.onEvent?.(reasonEvent);
        pending.push({
          runId,
          companyId: agent.companyId,
          seq: seq++,
          type: reasonEvent.type,
          data: reasonEvent,
        });
        event = {
          type: "terminal",
          status: "failed",
          reason: `${budget.stop.reason}: ${budget.stop.message}`,
        };
      }
      // A call the budget refused is no failure to classify: the recovery rules' verdict on it
      // ("not an explicit context-overflow error") would mislead; the budget's reason is the truth.
      if (event.type === "recovery" && event.action !== "replay" && budget.stop)
        event = {
          ...event,
          reason: `the ${budget.stop.reason === "budget" ? "budget" : "run's cap"} stopped the run before this call; nothing to replay`,
        };
      options.onEvent?.(event);
      trace.event(event);
      if (event.type === "usage") {
        addUsage(usage, event.usage);
        // The model the call's response named (Claude Code: its message's model, at turn_start).
        const servedModel = event.servedModel ?? servedThisCall;
        settling.push(
          servedModel !== undefined ? { usage: event.usage, servedModel } : { usage: event.usage },
        );
        servedThisCall = undefined;
        usageChanged = true;
        // A harness that reports each model call has each counted; one that reports a turn's
        // calls together cannot have them counted one by one.
        if (enforcement === "after-each-reported-call") budget.noteHarnessModelCall();
      }
      // A tool the harness ran itself, or a call it refused (no such tool): neither passed the run's
      // wrapped tools, which count their own calls.
      if (event.type === "turn_start" && event.model) servedThisCall = event.model;
      if (event.type === "tool_use" && (event.refused === true || !tools.some((t) => t.name === event.name)))
        budget.noteToolUse();
      if (event.type === "tool_use") closing = [];
      if (event.type === "text_end") closing.push(event.text);
      if (event.type === "recovery" && event.action === "replay") replays++;
      if (event.type === "rollover") rollovers++;
      if (event.type === "context" && event.snapshot.sessionId !== undefined)
        ranIn = event.snapshot.sessionId;
      if (event.type === "terminal") {
        terminal = event.status;
        failure = event.status === "done" ? null : (event.reason ?? event.status);
      }
      // Streaming deltas are kept too: the stored run is the full event stream, replayable.
      pending.push({ runId, companyId: agent.companyId, seq: seq++, type: event.type, data: event });
      const drifted = drift.see(event);
      if (drifted) {
        options.onEvent?.(drifted);
        pending.push({ runId, companyId: agent.companyId, seq: seq++, type: drifted.type, data: drifted });
        if (drift.stop && !stopping) {
          stopping = true;
          live.cancel(`${drift.stop.reason}: ${drift.stop.message}`);
        }
      }
      // The run's first event is written at once: a company view following the feed
      // (`?kind=lifecycle`) learns that the run started, whoever started it.
      if (seq === 1 || pending.length >= FLUSH_AT || FLUSH_ON.has(event.type)) await flush();
      // A harness that calls the model itself is stopped once a limit is reached (after the call settled).
      if (budget.stop && !stopping && event.type !== "terminal") {
        stopping = true;
        if (enforcement !== "before-each-call") live.cancel(`${budget.stop.reason}: ${budget.stop.message}`);
      }
    }
  } catch (error) {
    failure = redact.text(errorMessage(error));
    const code = error instanceof DriftRefused ? "model_drift" : "wake_failed";
    const event: AgentEvent = { type: "error", message: failure, code };
    options.onEvent?.(event);
    pending.push({ runId, companyId: agent.companyId, seq: seq++, type: event.type, data: event });
    const end: AgentEvent = { type: "terminal", status: "failed", reason: failure };
    options.onEvent?.(end);
    pending.push({ runId, companyId: agent.companyId, seq: seq++, type: end.type, data: end });
    terminal = "failed";
  } finally {
    clearTimeout(wallTimer);
    trace.end(terminal, failure);
    // Sent in the background: a slow or absent collector never holds the run's end.
    void flushTracing().catch(() => undefined);
    if (cancel) signal?.removeEventListener("abort", cancel);
    try {
      await profileRun?.close();
      native = session?.sessionState;
      // Closing releases what the session holds (the SDK session); the run's terminal event is out
      // already, so a failure here cannot become an event: the run still ends and the session's lock
      // is released, and the next wake verifies (and if need be heals) what it resumes.
      await session?.close().catch(() => undefined);
      // The rest of the events, the run's end, the agent's session (what the next wake continues,
      // the lock released) and the wake's release: one transaction, under the lease.
      const next = sessionRowAfter({ agent, connector, row, plan, state: native, runId });
      const batch = pending;
      pending = [];
      await runStore.transaction(
        async (tx) => {
          await tx.appendRunEvents(batch);
          await budget.settle(tx, settling);
          await budget.finish(tx);
          await tx.finishRun(runId, {
            status: terminal,
            usage,
            error: failure,
            stopReason: budget.stop?.reason ?? drift.stop?.reason ?? null,
          });
          for (const d of drift.drifts)
            await tx.insertActivity({
              companyId: agent.companyId,
              agentId: agent.id,
              runId,
              type: "model.drifted",
              data: {
                connectorId: connector.id,
                declared: d.declared,
                served: d.served,
                ...(d.fingerprint ? { fingerprint: d.fingerprint } : {}),
                policy: drift.stop ? "refuse" : "warn",
              },
            });
          // The run's tasks are free again with its end (one run works a task at a time).
          await releaseRunWork(tx, run, terminal);
          // The CEO's report on delegated work that came back reaches the operator's thread
          // (decided here, not asked of the model), unless it wrote to the operator itself.
          if (agent.isCeo && terminal === "done" && started.taken.some((r) => DELEGATED_BACK.has(r.trigger)))
            await postDelegatedReport(tx, {
              companyId: agent.companyId,
              ceoId: agent.id,
              runId,
              text: closing.join("\n\n"),
            });
          await tx.putAgentSession(next);
          if (lease)
            await tx.releaseWake(lease.wakeId, lease.workerId, {
              status: terminal === "done" ? "done" : "failed",
              error: failure,
            });
        },
        { isolation: "read committed" },
      );
    } catch (error) {
      thrown = error;
    } finally {
      lease?.stop();
    }
  }
  if (thrown !== undefined) throw thrown;
  // Mode changes were recorded by the tool handlers that caused them, inside their transactions.
  const after = await loadCompanyState(store, agent.companyId);
  const finished = (await store.getRun(runId)) as RunRow;
  return {
    run: finished,
    cue,
    cueTokens,
    modeBefore: mode,
    modeAfter: after.mode,
    terminal,
    usage,
    replays,
    rollovers,
    requests: started.taken,
    session: wakeSession(connector.kind, native, ranIn, rollovers),
    stopReason: budget.stop?.reason ?? drift.stop?.reason ?? null,
  };
}

/** Connectors whose every model call passes through the budget's stream function (Pi-routed). */

function wakeSession(
  kind: Parameters<typeof harnessOf>[0],
  state: HarnessSessionState | undefined,
  ranIn: string | undefined,
  rollovers: number,
): WakeSession {
  return {
    harness: state?.harness ?? harnessOf(kind),
    id: ranIn ?? state?.ref?.id ?? null,
    resumed: state?.resumed ?? false,
    rolledOver: rollovers > 0 || (state?.rolledOver ?? false),
  };
}

/** A wake the company refuses to run on a drifted model (settings.onModelDrift: refuse). */
class DriftRefused extends Error {}
