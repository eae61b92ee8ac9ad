// The wake runner: mode → cue + system prompt → core session → events persisted and streamed →
// usage recorded. Code decides the mode, the trigger and the governance; the model only acts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type AgentEvent,
  type BaseAgent,
  type StreamFn,
  type TerminalStatus,
  UserInputError,
  NotFoundError,
  errorMessage,
} from "@cadre/core";
// The offline connector's script and fault rehearsal (`@cadre/core/testing`), passed through to the session.
import type { FaultName, Script } from "@cadre/core/testing";
import type { NewRunEvent, PromptProfile, RunRow, RunUsage, Store } from "@cadre/store";
import { newId } from "./companies.js";
import type { CeoMode } from "./modes.js";
import { buildAgentPrompt, type ModeDocumentEdit } from "./prompts/build.js";
import { ceoCue, cueTokenCount, memberCue, type WakeTrigger } from "./prompts/cues.js";
import { createSession, requireWrappable } from "./session.js";
import { loadCompanyState } from "./state.js";
import { companyTools } from "./tools/index.js";
import { type LegacyRun, legacyCue, prepareLegacyRun, requireLegacyApi } from "./legacy/profile.js";

export interface WakeOptions {
  store: Store;
  agentId: string;
  /** Default: inferred (a decision since the agent's last run → approval_decided, else routine). */
  trigger?: WakeTrigger;
  /** Data directory; agents' working folders (MEMORY.md) live under it. */
  dataDir?: string;
  seed?: number | string;
  script?: Script;
  env?: NodeJS.ProcessEnv;
  /** Called for every event as it happens, before it is persisted. */
  onEvent?: (event: AgentEvent) => void;
  /** Called once the run row exists (so a caller can show or cancel it). */
  onStart?: (info: { run: RunRow; cue: string; cueTokens: number; mode: CeoMode }) => void;
  /** Called with the live session before its turn starts (the server's model switch reaches it, MC-13). */
  onSession?: (session: BaseAgent) => void;
  /** Prompt profile of this wake (C4-7); default: the company's settings.profile. Members always run semantic. */
  profile?: PromptProfile;
  /** Base URL of a running Cadre API. The legacy profile needs it: its CEO hires by HTTP against it. */
  apiUrl?: string;
  /** Aborting cancels the run; it still ends with exactly one terminal event (`cancelled`). */
  signal?: AbortSignal;
  /** Failure rehearsal on the offline connector (`--faults`): faults injected at the provider boundary. */
  faults?: readonly FaultName[];
  /** Wraps the CEO's or member's model call (evals' cassettes); Pi-routed connectors only (see session.ts). */
  wrapStreamFn?: (inner: StreamFn) => StreamFn;
  /** Evals only: a deliberately broken mode document (evals/runner/breaks.ts); the locked texts stay as they are. */
  modeDocument?: ModeDocumentEdit;
  /** argv prefix that starts the cadre CLI, for Codex's `cadre mcp` (default: this process, when it is the cadre CLI). */
  cadreCommand?: readonly string[];
}

export interface WakeResult {
  run: RunRow;
  cue: string;
  cueTokens: number;
  modeBefore: CeoMode;
  modeAfter: CeoMode;
  terminal: TerminalStatus;
  usage: RunUsage & { cacheHitRate: number };
  /** Wire-only replays of a failed user message (MC-10) and window rollovers (MC-9) during the run. */
  replays: number;
  rollovers: number;
}

export function cacheHitRate(u: RunUsage): number {
  const denominator = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  return denominator === 0 ? 0 : u.cacheReadTokens / denominator;
}

async function readMemoryIndex(dataDir: string | undefined, agentId: string): Promise<string | null> {
  if (!dataDir) return null;
  try {
    return await readFile(join(dataDir, "agents", agentId, "MEMORY.md"), "utf8");
  } catch {
    return null;
  }
}

async function inferTrigger(store: Store, companyId: string, agentId: string): Promise<WakeTrigger> {
  const runs = await store.listRuns({ agentId });
  const lastStart = runs.at(-1)?.startedAt ?? "";
  const decisions = await store.listActivity(companyId, { type: "approval.decided" });
  return decisions.some((d) => d.at > lastStart) ? "approval_decided" : "routine";
}

const FLUSH_AT = 64;
const FLUSH_ON = new Set<AgentEvent["type"]>(["tool_result", "turn_end", "error", "terminal"]);

export async function wakeAgent(options: WakeOptions): Promise<WakeResult> {
  const { store } = options;
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
  if (options.faults?.length && connector.kind !== "offline") {
    throw new UserInputError(
      `--faults rehearses failures on the offline connector only; ${agent.name} runs on "${connector.id}" (${connector.kind})`,
    );
  }
  if (options.wrapStreamFn) requireWrappable(connector, agent.name);
  const trigger = options.trigger ?? (await inferTrigger(store, agent.companyId, agent.id));
  const mode = state.mode;
  // The profile is settled before anything is written: a legacy wake with no API fails here.
  const profile: PromptProfile =
    options.profile ?? (agent.isCeo ? state.company.settings.profile : "semantic");
  const apiUrl = profile === "legacy" ? requireLegacyApi(agent, options.apiUrl) : undefined;
  const cue =
    apiUrl !== undefined
      ? legacyCue(apiUrl, agent.companyId)
      : agent.isCeo
        ? ceoCue(mode, trigger)
        : memberCue(agent.role);
  const memoryIndex = await readMemoryIndex(options.dataDir, agent.id);
  // Readiness in the prompt and in hire_agent is computed against the wake's environment.
  const prompt = buildAgentPrompt({
    state,
    agent,
    mode,
    memoryIndex,
    ...(options.env ? { env: options.env } : {}),
    ...(options.modeDocument ? { modeDocument: options.modeDocument } : {}),
  });

  const runId = newId("run");
  const run = await store.insertRun({
    id: runId,
    companyId: agent.companyId,
    agentId: agent.id,
    trigger,
    mode,
    profile,
    cue,
  });
  const cueTokens = cueTokenCount(cue);
  options.onStart?.({ run, cue, cueTokens, mode });

  const usage: RunUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let terminal: TerminalStatus = "failed";
  let replays = 0;
  let rollovers = 0;
  let failure: string | null = null;
  let seq = 0;
  let pending: NewRunEvent[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await store.appendRunEvents(batch);
  };
  let legacy: LegacyRun | undefined;
  let cancel: (() => void) | undefined;
  try {
    if (apiUrl !== undefined)
      legacy = await prepareLegacyRun({
        store,
        agent,
        runId,
        apiUrl,
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      });
    const session = createSession({
      sessionId: runId,
      agent,
      connector,
      systemPrompt: prompt.systemPrompt,
      segments: prompt.segments,
      tools: legacy
        ? legacy.tools
        : companyTools(store, {
            companyId: agent.companyId,
            agentId: agent.id,
            via: "tool",
            runId,
            ...(options.env ? { env: options.env } : {}),
          }),
      seed: options.seed ?? `${agent.id}:${runId}`,
      ...(options.script ? { script: options.script } : {}),
      ...(options.faults?.length ? { faults: options.faults } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.wrapStreamFn ? { wrapStreamFn: options.wrapStreamFn } : {}),
      // Claude Code works in the agent's folder; Codex starts `cadre mcp` on this data dir and run.
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.cadreCommand ? { cadreCommand: options.cadreCommand } : {}),
      runId,
    });
    options.onSession?.(session);
    const events = session.send(cue);
    cancel = () => session.cancel();
    if (options.signal?.aborted) cancel();
    options.signal?.addEventListener("abort", cancel, { once: true });
    for await (const event of events) {
      options.onEvent?.(event);
      if (event.type === "usage") {
        usage.inputTokens += event.usage.input;
        usage.outputTokens += event.usage.output;
        usage.cacheReadTokens += event.usage.cacheRead;
        usage.cacheWriteTokens += event.usage.cacheWrite;
      }
      if (event.type === "recovery" && event.action === "replay") replays++;
      if (event.type === "rollover") rollovers++;
      if (event.type === "terminal") {
        terminal = event.status;
        failure = event.status === "done" ? null : (event.reason ?? event.status);
      }
      // Streaming deltas are kept too: the stored run is the full event stream, replayable.
      pending.push({ runId, companyId: agent.companyId, seq: seq++, type: event.type, data: event });
      if (pending.length >= FLUSH_AT || FLUSH_ON.has(event.type)) await flush();
    }
  } catch (error) {
    failure = errorMessage(error);
    const event: AgentEvent = { type: "error", message: failure, code: "wake_failed" };
    options.onEvent?.(event);
    pending.push({ runId, companyId: agent.companyId, seq: seq++, type: event.type, data: event });
    const end: AgentEvent = { type: "terminal", status: "failed", reason: failure };
    options.onEvent?.(end);
    pending.push({ runId, companyId: agent.companyId, seq: seq++, type: end.type, data: end });
    terminal = "failed";
  } finally {
    if (cancel) options.signal?.removeEventListener("abort", cancel);
    await legacy?.close();
    await flush();
    await store.finishRun(runId, { status: terminal, usage, error: failure });
  }
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
    usage: { ...usage, cacheHitRate: cacheHitRate(usage) },
    replays,
    rollovers,
  };
}
