// The Pi harness: a BaseAgent over an AgentSession of the Pi coding agent's SDK
// (`@mariozechner/pi-coding-agent`). Pi runs the agent loop, keeps the session file and compacts
// natively (MC-8): at contextWindow − reserveTokens when a run ends, and on a provider overflow,
// with the summary written by the model through the same provider boundary as every agent call.
// The host freezes Pi's compaction settings at each start/resume, consumes its compaction events
// (run view, usage, the one classifier), gates its overflow continue with the replay rule
// (MC-10), hands off when a window must close (MC-9, MC-11, MC-12, MC-13) and checks the stable
// prefix of every agent call (MC-3). It never asks Pi to compact.
import { existsSync } from "node:fs";
import type { AgentMessage, AgentTool, StreamFn } from "@mariozechner/pi-agent-core";
import {
  type Api,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type Context,
  type Message,
  type Model,
  type SimpleStreamOptions,
  streamSimple,
} from "@mariozechner/pi-ai";
import type { AgentSession, AgentSessionEvent, SessionManager } from "@mariozechner/pi-coding-agent";
import { countTokens } from "../../tokens.js";
import { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "../../agent/base-agent.js";
import type { ToolDefinition } from "../../agent/tool.js";
import {
  buildHandoff,
  type CompressionTrigger,
  type ModelSwitchVerdict,
  SessionLock,
  switchModel,
  type TranscriptItem,
} from "../../context/index.js";
import { errorMessage, UserInputError } from "../../errors.js";
import { placeAnthropicCacheBreakpoints } from "../../prompt/anthropic-breakpoints.js";
import type { PromptSegment } from "../../prompt/assemble.js";
import {
  type ModelCallPrefix,
  PromptPrefixChangedError,
  StablePrefixGuard,
} from "../../prompt/prefix-guard.js";
import {
  type HarnessSessionState,
  type NativeSessionRef,
  type SessionBootstrap,
  type SessionContinuation,
  selfHealReason,
} from "../../session/harness-session.js";
import { type ProductTurn, ProductTurns } from "../../session/product-turns.js";
import { describeProviderError } from "../../session/provider-error.js";
import { decideRecovery, type RecoveryDecision, TurnEvidenceTracker } from "../../session/recovery.js";
import { SessionContext } from "../../session/session-context.js";
import type { ContextSnapshot, EventOf, HarnessToolsReport, ModelInfo } from "../../types.js";
import { OFFLINE_PROVIDER, type PiRoute, toPiModel } from "./pi-model.js";
import { DEFAULT_PROMPT_TIMEOUT_MS, rehearsalPromptTimeoutOf, withPromptTimeout } from "./prompt-timeout.js";
import { DEFAULT_PI_BYTE_BUDGET, type PiByteBudget } from "./request-bytes.js";
import { type CompressionAction, PiCompression } from "./compression.js";
import {
  createPiSession,
  keepRecentTokensFor,
  loadPiSdk,
  type OpenedPiSession,
  PI_CODING_TOOLS,
  type PiCodingTool,
  type PiSdk,
  registerSessionProvider,
} from "./sdk.js";
import { checkSessionFile, setAside } from "./session-file.js";
import { GUARDED_PI_TOOLS, workspaceTools } from "./workspace-tools.js";
import { ReportedTools, toolListProblem } from "../tool-report.js";
import {
  BOOTSTRAP_SEPARATOR,
  boundItems,
  estimateTokens,
  PI_HANDOFF_OPTIONS,
  transcriptItems,
} from "./transcript.js";
import { createPiTranslatorState, EMPTY_SUMMARY, translatePiEvent } from "./translate.js";
import { deferredStream } from "./provider-stream.js";
import { Waiters } from "./waiters.js";

export interface PiAgentOptions extends SessionContinuation {
  route?: PiRoute;
  /**
   * The provider call (the offline scripted model, a recorded cassette, or pi-ai's streamSimple).
   * Every model call reaches it: the agent loop's, and Pi's own compaction-summary requests.
   */
  streamFn?: StreamFn;
  /** Resolves the API key for a provider at call time; keys never live in config or the store. */
  getApiKey?: (provider: string) => string | undefined;
  /** The assembled prompt's segments: every agent call's system prompt is checked against them, segment by segment (MC-3). */
  segments?: readonly PromptSegment[];
  /** Called once per agent call, after its stable prefix passed the check, with the prefix hashes. */
  onModelCall?: (prefix: ModelCallPrefix) => void;
  /** Explicit user override of the compaction threshold, a fraction in (0, 1] (MC-8); default 90%. */
  compactThreshold?: number;
  /**
   * MC-11: a model call that produces nothing for this long is aborted, and the next send starts
   * from a handoff. Default 10 minutes; connectors override it with `config.promptTimeoutMs`.
   */
  promptTimeoutMs?: number;
  /** MC-12: the request byte budget and what counts as an oversized inline image. */
  byteBudget?: Partial<PiByteBudget>;
  /** Where the session files live (DATA_DIR/agents/AGENT_ID/sessions); without it the session lives in memory only. */
  sessionDir?: string;
  /** The working directory Pi records (the agent's folder); default: this process's. */
  cwd?: string;
  /** Pi's coding tools the connector's policy grants; default none. */
  codingTools?: readonly PiCodingTool[];
  /**
   * The agent's workspace: its coding tools are rooted there and refuse any path outside it (an
   * error tool result). Only tools that name their file can be confined: bash cannot.
   */
  workspace?: string;
  /** Pi's compaction.keepRecentTokens; default 20,000, or 15% of a smaller window. */
  keepRecentTokens?: number;
}

function positive(name: string, value: number | undefined): void {
  if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
    throw new UserInputError(
      `${name} must be a positive number (got ${typeof value === "number" ? value : JSON.stringify(value)})`,
    );
  }
}

/** Whether an answer holds anything: visible text, or a tool call. */
function hasOutput(message: AssistantMessage): boolean {
  return message.content.some(
    (c) => c.type === "toolCall" || (c.type === "text" && c.text.trim().length > 0),
  );
}

/** Thrown inside the model-call preparation when the compression decision fails closed (MC-12). */
class CompressionRefused extends Error {}

/** The one factory point where company tools become Pi tools. */
export function toPiTool(tool: ToolDefinition): AgentTool {
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: tool.parameters,
    // Our strict validation runs before Pi's lenient coercion, so a wrong type is reported as
    // such instead of being silently coerced. A throw here becomes an error tool result.
    prepareArguments: (raw: unknown) => {
      const result = tool.validate(raw);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    },
    execute: async (toolCallId, params, signal) => {
      const outcome = await tool.execute(params, { toolCallId, signal });
      // Pi marks a tool result as an error only when execute throws; keep our content for the model.
      if (outcome.isError)
        throw new ToolRefusal(outcome.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
      return { content: outcome.content, details: outcome.details };
    },
    executionMode: "sequential",
  };
}

class ToolRefusal extends Error {}

function isAssistant(message: unknown): message is AssistantMessage {
  return (
    typeof message === "object" && message !== null && (message as { role?: unknown }).role === "assistant"
  );
}

/** The custom entry a fresh window records its bootstrap in (the items survive in the session file). */
const BOOTSTRAP_ENTRY = "cadre-bootstrap";

interface BootstrapEntryData {
  handoff: string;
  items: TranscriptItem[];
  reason: string;
}

/** Pi's texts around a failed compaction, before the provider's own (the classifier reads the latter). */
const PI_COMPACTION_PREFIX =
  /^(?:Auto-compaction failed|Context overflow recovery failed|Compaction failed): (?:Turn prefix summarization failed: |Summarization failed: )?/;

/** A key that is not one: a missing key fails at the vendor, never falls back to the environment's. */
const NO_KEY = "missing-api-key";

export class PiAgent extends BaseAgent {
  readonly #options: PiAgentOptions;
  readonly #context: SessionContext;
  readonly #lock = new SessionLock();
  readonly #turns: ProductTurns;
  readonly #evidence = new TurnEvidenceTracker();
  /** The session's first tool report: a later run offering another list is a mid-session change (MC-3). */
  readonly #reported = new ReportedTools();
  readonly #translator = createPiTranslatorState();
  readonly #prefixGuard: StablePrefixGuard;
  readonly #compression: PiCompression;
  readonly #promptTimeoutMs: number;
  readonly #inner: StreamFn;
  readonly #keepRecentTokens: number | undefined;
  /** Failed calls our prompt timeout produced (MC-11): recognised by identity, never by their text. */
  readonly #timedOut = new WeakSet<object>();
  /** Requests of the agent loop (the rest reaching the provider boundary are Pi's own, e.g. summaries). */
  readonly #agentCalls = new WeakSet<object>();
  #route: PiRoute | undefined;
  #piModel: Model<any>;
  #provider: { api: Api; unregister: () => void } | undefined;
  #sdk: PiSdk | undefined;
  #open: OpenedPiSession | undefined;
  #unsubscribe: (() => void) | undefined;
  #continueOriginal: (() => Promise<void>) | undefined;
  #closed = false;
  // The native session: the one to resume, the current one, how it began.
  #resume: NativeSessionRef | undefined;
  #ref: NativeSessionRef | undefined;
  #bootstrap: (SessionBootstrap & { kind: "rollover" | "self-heal" }) | undefined;
  #startedFrom: SessionBootstrap | undefined;
  #unsent: (SessionBootstrap & { kind: "rollover" | "self-heal" }) | undefined;
  readonly #digest: TranscriptItem[];
  #resumed = false;
  #rolledOver = false;
  #selfHealed: string | undefined;
  // The product turn in flight.
  private emitCurrent: Emit | undefined;
  #turn: ProductTurn | undefined;
  #signal: AbortSignal | undefined;
  #lastAssistant: AssistantMessage | undefined;
  #overflowDecision: RecoveryDecision | undefined;
  #overflowCompacted = false;
  #recovering = false;
  /** Why the compression decision refused this turn's call, when it did (MC-12). */
  #refused: string | undefined;
  /** The refused call waited for a handoff Pi could not make mid-run (MC-9), not for a compression. */
  #refusedForRollover = false;
  // Pi's session-level activity, for waiting until it is idle (compaction runs after prompt() resolves).
  #loopEnds = 0;
  #sessionEnds = 0;
  #compactionOpen = false;
  #summaryBlank = false;
  #retryExpected = false;
  #continuation: Promise<void> | undefined;
  readonly #waiters = new Waiters();
  #baseTokens: number | undefined;

  constructor(config: SessionConfig, options: PiAgentOptions = {}) {
    super(config);
    if (
      options.compactThreshold !== undefined &&
      !(
        Number.isFinite(options.compactThreshold) &&
        options.compactThreshold > 0 &&
        options.compactThreshold <= 1
      )
    ) {
      throw new UserInputError(
        `compaction threshold must be a fraction in (0, 1], e.g. 0.9 (got ${options.compactThreshold})`,
      );
    }
    positive("Pi prompt timeout (config.promptTimeoutMs, in ms)", options.promptTimeoutMs);
    positive("request byte budget (byteBudget.requestBytes)", options.byteBudget?.requestBytes);
    positive(
      "oversized image size (byteBudget.oversizedImageBytes)",
      options.byteBudget?.oversizedImageBytes,
    );
    positive("Pi compaction.keepRecentTokens", options.keepRecentTokens);
    for (const tool of options.codingTools ?? [])
      if (!(PI_CODING_TOOLS as readonly string[]).includes(tool))
        throw new UserInputError(
          `Pi coding tool "${tool}" cannot be granted; allowed: ${PI_CODING_TOOLS.join(", ")}`,
        );
    if (options.workspace !== undefined)
      for (const tool of options.codingTools ?? [])
        if (!GUARDED_PI_TOOLS.includes(tool))
          throw new UserInputError(
            `Pi's ${tool} tool cannot be confined to a workspace (Pi has no sandbox); a workspace allows: ${GUARDED_PI_TOOLS.join(", ")}`,
          );
    this.#options = options;
    this.#compression = new PiCompression(
      { ...DEFAULT_PI_BYTE_BUDGET, ...options.byteBudget },
      () => this.config.systemPrompt + this.#toolsJson(),
    );
    this.#promptTimeoutMs =
      options.promptTimeoutMs ?? rehearsalPromptTimeoutOf(options.streamFn) ?? DEFAULT_PROMPT_TIMEOUT_MS;
    this.#keepRecentTokens = options.keepRecentTokens;
    this.#context = new SessionContext({
      harness: "pi",
      model: config.model,
      ...(options.compactThreshold !== undefined ? { thresholdOverride: options.compactThreshold } : {}),
    });
    this.#turns = new ProductTurns(config.sessionId);
    this.#route = options.route;
    this.#piModel = toPiModel(config.model, options.route);
    this.#prefixGuard = new StablePrefixGuard(options.segments);
    this.#inner = options.streamFn ?? streamSimple;
    this.#digest = [...(options.digest ?? [])];
    if (options.bootstrap) this.#bootstrap = { kind: "rollover", ...options.bootstrap };
    else if (options.resume) this.#resume = options.resume;
  }

  /** The session's context state now (what `cadre sessions inspect` shows for a finished run). */
  get contextState(): ContextSnapshot {
    const sessionId = this.#ref?.id ?? this.#bootstrap?.fromSession;
    return this.#context.snapshot(this.#turns.openClaims(), sessionId !== undefined ? { sessionId } : {});
  }

  /** The model this session routes to now (it changes only through setModel). */
  get model(): ModelInfo {
    return this.#context.model;
  }

  /** The AgentSession of the current window, once a send opened it (tests and diagnostics). */
  get piSession(): AgentSession | undefined {
    return this.#open?.session;
  }

  /**
   * MC-13: switch the session to `target`, assessed inside the lock shared with send against the
   * target's window. Fits → new route. At or over 90% of the target window → the window is closed
   * and its code-built handoff starts a fresh one at the next send, on the new route (the old native
   * window is never resumed). A running turn or a recovery in flight → refused, nothing changes.
   */
  setModel(target: ModelInfo, route?: PiRoute): Promise<ModelSwitchVerdict> {
    return switchModel(this.#lock, {
      snapshot: () => ({
        harness: "pi",
        tokensInWindow: this.#context.tokensInWindow,
        targetContextWindow: target.contextWindow,
        turnRunning: this.isRunning,
        remote: false,
        localHandoffAvailable: true,
        recoveryInFlight: this.#recovering,
      }),
      handoffRebuild: async () => {
        await this.#closeWindow(
          `switch to ${target.id}: the window is at or over 90% of its ${target.contextWindow}-token window; rebuilt from a handoff first`,
        );
      },
      route: async () => {
        this.#piModel = toPiModel(target, route ?? this.#route);
        if (route) this.#route = route;
        this.#context.switchModel(target); // MC-8: the reserve is frozen again for the new window
        const open = this.#open;
        if (open && this.#provider) {
          open.setApiKey(this.#piModel.provider, this.#apiKey());
          await open.session.setModel({ ...this.#piModel, api: this.#provider.api });
          open.session.settingsManager.applyOverrides({ compaction: this.#compactionSettings() });
        }
      },
    });
  }

  protected override contextSnapshot(): ContextSnapshot | undefined {
    return this.contextState;
  }

  protected override harnessSessionState(): HarnessSessionState {
    const file = this.#ref?.file;
    // A session Pi has not written yet (no assistant message) cannot be resumed: it never existed.
    const ref =
      this.#open && this.#ref && file !== undefined && existsSync(file)
        ? this.#ref
        : this.#open
          ? undefined
          : this.#resume; // never opened: still the session it was told to resume
    const pending = this.#open ? (ref ? undefined : this.#startedFrom) : this.#bootstrap;
    let reserveTokens: number | undefined;
    try {
      reserveTokens = this.#context.reserveTokens;
    } catch {
      reserveTokens = undefined;
    }
    return {
      harness: "pi",
      ref,
      resumed: this.#resumed,
      rolledOver: this.#rolledOver,
      ...(this.#selfHealed !== undefined ? { selfHealed: this.#selfHealed } : {}),
      ...(pending ? { pendingBootstrap: pending } : {}),
      digest: this.#digestItems(),
      model: this.#context.model.id,
      tokensInWindow: this.#context.tokensInWindow,
      ...(reserveTokens !== undefined ? { reserveTokens } : {}),
    };
  }

  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#dispose();
    this.#provider?.unregister();
    this.#provider = undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Opening, closing and bootstrapping native windows

  #compactionSettings(): { enabled: true; reserveTokens: number; keepRecentTokens: number } {
    return {
      enabled: true,
      reserveTokens: this.#context.reserveTokens,
      keepRecentTokens: this.#keepRecentTokens ?? keepRecentTokensFor(this.#context.contextWindow),
    };
  }

  #apiKey(): string {
    const provider = this.#piModel.provider;
    return this.#options.getApiKey?.(provider) ?? (provider === OFFLINE_PROVIDER ? "offline" : NO_KEY);
  }

  /** Opens the window the next send goes to: the resumed session, a fresh one, or one from a handoff. */
  async #ensureOpen(): Promise<void> {
    if (this.#open) return;
    if (this.#closed) throw new Error(`session ${this.config.sessionId} is closed`);
    const sdk = (this.#sdk ??= await loadPiSdk());
    const dir = this.#options.sessionDir;
    const cwd = this.#options.cwd ?? process.cwd();
    const resume = this.#resume;
    this.#resume = undefined;
    if (resume && !this.#bootstrap) {
      const check =
        dir !== undefined && resume.file !== undefined
          ? await checkSessionFile(sdk, resume.file, resume.id)
          : ({ ok: false, reason: "missing", detail: "no session file was recorded" } as const);
      if (check.ok) {
        await this.#start(sdk, sdk.SessionManager.open(resume.file as string, dir, cwd));
        // Pi falls back to a new session rather than fail: only the session asked for counts.
        if (this.#open && this.piSession?.sessionId === resume.id) {
          this.#resumed = true;
          this.#context.resumeAt(this.#options.tokensInWindow ?? 0);
          this.emitCurrent?.({ type: "session", action: "resumed", harness: "pi", id: resume.id });
          return;
        }
        this.#dispose();
      }
      // One bounded self-heal: a fresh session from the handoff digest; the bad file is kept aside.
      const aside = check.ok
        ? undefined
        : check.reason === "missing"
          ? undefined
          : await setAside(resume.file!);
      const why = check.ok
        ? `Pi opened session ${this.#ref?.id ?? "?"} instead`
        : `${check.detail}${aside ? `; kept as ${aside}` : ""}`;
      const reason = selfHealReason("pi", resume.id, why);
      this.#selfHealed = reason;
      this.#ref = undefined;
      const items = boundItems(this.#digest);
      if (items.length > 0)
        this.#bootstrap = {
          kind: "self-heal",
          handoff: buildHandoff(items, PI_HANDOFF_OPTIONS),
          items,
          reason,
          fromSession: resume.id,
        };
      this.emitCurrent?.({
        type: "session",
        action: "self-healed",
        harness: "pi",
        previousId: resume.id,
        reason,
      });
    }
    const manager: SessionManager =
      dir !== undefined ? sdk.SessionManager.create(cwd, dir) : sdk.SessionManager.inMemory(cwd);
    this.#unsent = this.#bootstrap;
    this.#startedFrom = this.#bootstrap;
    this.#bootstrap = undefined;
    await this.#start(sdk, manager);
    this.emitCurrent?.({ type: "session", action: "started", harness: "pi", id: this.#ref?.id });
  }

  async #start(sdk: PiSdk, sessionManager: SessionManager): Promise<void> {
    this.#provider ??= registerSessionProvider((model, context, options) =>
      this.#boundary(model, context, options),
    );
    const opened = await createPiSession(sdk, {
      cwd: this.#options.cwd ?? process.cwd(),
      sessionManager,
      model: { ...this.#piModel, api: this.#provider.api },
      apiKey: this.#apiKey(),
      systemPrompt: this.config.systemPrompt,
      customTools: this.config.tools.map(toPiTool),
      ...(this.#options.workspace !== undefined
        ? { fileTools: workspaceTools(sdk, this.#options.workspace, this.#options.codingTools ?? []) }
        : {}),
      toolNames: [...this.config.tools.map((t) => t.name), ...(this.#options.codingTools ?? [])],
      ...this.#compactionSettings(),
    });
    const { session } = opened;
    const agent = session.agent;
    // Every agent call passes the stable-prefix check first (MC-3), then Pi's own stream function,
    // which resolves the key and reaches the provider boundary below.
    const base = agent.streamFn;
    agent.streamFn = (model, context, options) => this.#guarded(base, model, context, options);
    // MC-12 before every model call. It replaces the SDK's extension `context` hook, which would
    // deep-copy the transcript for every call (MC-4); no extension is loaded here.
    agent.transformContext = (messages) => this.#beforeModelCall(messages);
    // Pi's overflow recovery continues through agent.continue(): the replay gate decides (MC-10).
    this.#continueOriginal = agent.continue.bind(agent);
    agent.continue = () => this.#gatedContinue();
    const offLoop = agent.subscribe((event) => {
      if (event.type === "agent_end") this.#loopEnds += 1;
      this.#waiters.check();
      // Pi's loop awaits its listeners (the session's do not): a consumer that fell behind pauses
      // the loop's reading of the provider, so the event queue keeps its bound (MC-4).
      return this.roomForEvents();
    });
    const offSession = session.subscribe((event) => this.#onEvent(event));
    this.#unsubscribe = () => {
      offSession();
      offLoop();
    };
    this.#open = opened;
    const file = sessionManager.getSessionFile();
    this.#ref = {
      id: session.sessionId,
      ...(file !== undefined && sessionManager.isPersisted() ? { file } : {}),
    };
  }

  #dispose(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#open?.session.dispose();
    this.#open = undefined;
  }

  /**
   * MC-9: the window is closed for good (never resumed again) and its handoff is written by code —
   * no model call, no tool result bodies, the decisions of every earlier window kept. The fresh
   * window starts from it at the next send.
   */
  async #closeWindow(reason: string): Promise<void> {
    const items = this.#digestItems();
    const bootstrap = {
      kind: "rollover" as const,
      handoff: buildHandoff(items, PI_HANDOFF_OPTIONS),
      items: boundItems(items),
      reason,
      tokensBefore: this.#context.tokensInWindow,
      ...(this.#ref ? { fromSession: this.#ref.id } : {}),
    };
    this.#dispose();
    this.#ref = undefined;
    this.#startedFrom = undefined;
    this.#unsent = undefined;
    this.#bootstrap = bootstrap;
  }

  /** The first prompt of a window that starts from a handoff carries it; the rollover is reported here. */
  #compose(prompt: string): string {
    const boot = this.#unsent;
    if (!boot) return prompt;
    this.#unsent = undefined;
    const data: BootstrapEntryData = { handoff: boot.handoff, items: [...boot.items], reason: boot.reason };
    this.piSession?.sessionManager.appendCustomEntry(BOOTSTRAP_ENTRY, data);
    const text = `${boot.handoff}${BOOTSTRAP_SEPARATOR}${prompt}`;
    if (boot.kind === "rollover") {
      this.#baseTokens ??= countTokens(this.config.systemPrompt) + countTokens(this.#toolsJson());
      const tokensAfter = this.#baseTokens + countTokens(text);
      this.#context.rolloverCompleted(tokensAfter);
      this.#rolledOver = true;
      this.emitCurrent?.({
        type: "rollover",
        reason: boot.reason,
        handoffBytes: Buffer.byteLength(boot.handoff, "utf8"),
        ...(boot.tokensBefore !== undefined ? { tokensBefore: boot.tokensBefore } : {}),
        tokensAfter,
        ...(boot.fromSession !== undefined ? { fromSession: boot.fromSession } : {}),
        ...(this.#ref ? { toSession: this.#ref.id } : {}),
      });
    }
    return text;
  }

  /** The agent's session so far as bounded transcript items: the current window's, after what it carried. */
  #digestItems(): TranscriptItem[] {
    const session = this.piSession;
    if (!session) return this.#bootstrap ? [...this.#bootstrap.items] : boundItems(this.#digest);
    const entries = session.sessionManager.getBranch();
    let carried: BootstrapEntryData | undefined;
    const messages: AgentMessage[] = [];
    for (const entry of entries) {
      if (entry.type === "custom" && entry.customType === BOOTSTRAP_ENTRY)
        carried ??= entry.data as BootstrapEntryData;
      else if (entry.type === "message") messages.push(entry.message);
    }
    return boundItems([...(carried?.items ?? []), ...transcriptItems(messages, carried?.handoff)]);
  }

  // ---------------------------------------------------------------------------------------------
  // The provider boundary and the agent loop's hooks

  /** Every model call of the session: the prompt timeout (MC-11), then the provider. */
  #boundary(model: Model<any>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
    // Pi passes the session's own api id; the provider is called with the real one.
    const real = { ...this.#piModel, ...(model.id === this.#piModel.id ? {} : { id: model.id }) };
    const agentCall = this.#agentCalls.has(context);
    return deferredStream(
      real,
      () =>
        withPromptTimeout(
          real,
          this.#promptTimeoutMs,
          options?.signal,
          (signal) => Promise.resolve(this.#inner(real, context, { ...options, signal })),
          (failed) => this.#timedOut.add(failed),
        ),
      agentCall ? undefined : (final) => this.#piCallEnded(final),
      this.config.redact,
    );
  }

  /** One of Pi's own calls (a compaction summary) ended: its usage is counted here, once (MC-15). */
  #piCallEnded(final: AssistantMessage): void {
    if (final.stopReason !== "error" && final.stopReason !== "aborted") {
      const text = final.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      if (text.trim() === "") this.#summaryBlank = true;
    }
    const u = final.usage;
    this.emitCurrent?.({
      type: "usage",
      usage: { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite },
    });
  }

  /** An agent call: the stable-prefix check (MC-3), then Pi's stream function. */
  #guarded(
    base: StreamFn,
    model: Model<any>,
    context: Context,
    options?: SimpleStreamOptions,
  ): ReturnType<StreamFn> {
    let prefix: ModelCallPrefix;
    try {
      prefix = this.#prefixGuard.check(context.systemPrompt ?? "", context.tools ?? []);
    } catch (error) {
      if (error instanceof PromptPrefixChangedError)
        this.emitCurrent?.({ type: "error", message: error.message, code: error.code });
      throw error;
    }
    this.#options.onModelCall?.(prefix);
    this.#agentCalls.add(context);
    if (this.#piModel.api !== "anthropic-messages") return base(model, context, options);
    const onPayload = options?.onPayload;
    return base(model, context, {
      ...options,
      onPayload: async (payload, m) =>
        placeAnthropicCacheBreakpoints((await onPayload?.(payload, m)) ?? payload),
    });
  }

  /** transformContext: before every model call, inside the session lock (MC-13). */
  #beforeModelCall(messages: AgentMessage[]): Promise<AgentMessage[]> {
    return this.#lock.run(() => {
      this.#compress("next-send", messages);
      // Pi compacts only between runs: a handoff needed in the middle of one cannot be made here,
      // so the call is not sent (fail closed) and the next send starts from the handoff.
      if (this.#context.needsRollover) {
        const reason = `the window must be rebuilt from a handoff (${this.#context.latchReason ?? "needsRollover"}); Pi cannot rebuild it in the middle of a run`;
        this.#refused = reason; // MC-9: fail closed, the handoff comes first
        this.#refusedForRollover = true;
        this.emitCurrent?.({
          type: "error",
          message: `the request was not sent: ${reason}`,
          code: "rollover_pending",
        });
        throw new CompressionRefused(reason);
      }
      return messages;
    });
  }

  /** Pi's overflow recovery wants to send the failed message again: the replay gate decides (MC-10). */
  #gatedContinue(): Promise<void> {
    this.#retryExpected = false;
    this.#waiters.check();
    const turn = this.#turn;
    const emit = this.emitCurrent;
    const original = this.#continueOriginal;
    if (!turn || !emit || !original || this.#signal?.aborted) return Promise.resolve();
    const failed = this.#lastAssistant;
    const text = failed?.errorMessage ?? "";
    const decision = decideRecovery({
      harness: "pi",
      error: describeProviderError(text),
      evidence: this.#evidence.evidence(),
      replaysDone: turn.attempts - 1,
      afterCompactionRollover: this.#context.needsRollover,
      promptTimeout: failed !== undefined && this.#timedOut.has(failed),
    });
    emit({ type: "recovery", action: decision.action, reason: decision.reason });
    this.#overflowDecision = decision;
    if (decision.action !== "replay") return Promise.resolve();
    turn.retry(text);
    this.#context.replayed();
    turn.attempt();
    this.#lastAssistant = undefined;
    this.#overflowCompacted = false; // a failure of the replay is judged on its own
    const run = original();
    this.#continuation = run.catch(() => undefined);
    return run;
  }

  #onEvent(event: AgentSessionEvent): void {
    switch (event.type) {
      case "agent_end": {
        this.#sessionEnds += 1;
        const last = [...event.messages].reverse().find(isAssistant);
        if (last) this.#lastAssistant = last;
        break;
      }
      case "message_end":
        // Occupancy from each successful call's real usage (MC-8); a failed call reports no window.
        if (
          isAssistant(event.message) &&
          event.message.stopReason !== "error" &&
          event.message.stopReason !== "aborted" &&
          this.emitCurrent
        )
          this.#context.observeUsage(event.message.usage);
        break;
      case "compaction_start":
        this.#compactionOpen = true;
        this.#summaryBlank = false;
        break;
      case "compaction_end":
        this.#compactionOpen = false;
        if (event.willRetry) this.#retryExpected = true;
        if (event.reason === "overflow") this.#overflowCompacted = event.result !== undefined;
        break;
      default:
        break;
    }
    const emit = this.emitCurrent;
    if (emit) {
      for (const translated of translatePiEvent(event, this.#translator)) {
        if (translated.type === "compaction_start") {
          this.#context.consume(translated);
          emit(translated);
        } else if (translated.type === "compaction_end") emit(this.#compactionEnded(translated));
        else emit(translated);
      }
    }
    this.#waiters.check();
  }

  /** Pi's compaction_end, consumed by the one classifier (MC-9); a blank model summary is a failure. */
  #compactionEnded(event: EventOf<"compaction_end">): EventOf<"compaction_end"> {
    let end = event;
    let details: { status?: number; code?: string } = {};
    if (end.ok && this.#summaryBlank) {
      end = { type: "compaction_end", ok: false, summary: "", error: EMPTY_SUMMARY };
      if (event.tokensBefore !== undefined) end.tokensBefore = event.tokensBefore;
    } else if (end.ok) {
      end = { ...end, tokensAfter: this.#windowTokens() };
    } else if (end.error !== undefined && end.summary === undefined) {
      const failure = describeProviderError(end.error.replace(PI_COMPACTION_PREFIX, ""));
      details = {
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        ...(failure.code !== undefined ? { code: failure.code } : {}),
      };
    }
    this.#summaryBlank = false;
    this.#context.consume(end, details);
    return end;
  }

  /**
   * prompt() resolves when the loop ends, before Pi's compaction and its overflow continue: wait
   * until Pi has processed every event of the run, ended any compaction and made any continue.
   */
  async #settle(session: AgentSession): Promise<void> {
    for (;;) {
      await session.agent.waitForIdle();
      await this.#waiters.until(() => this.#sessionEnds >= this.#loopEnds);
      await Promise.resolve();
      if (this.#compactionOpen) {
        await this.#waiters.until(() => !this.#compactionOpen);
        continue;
      }
      if (this.#retryExpected) {
        await this.#waiters.until(() => !this.#retryExpected);
        continue;
      }
      const continuation = this.#continuation;
      if (continuation) {
        this.#continuation = undefined;
        await continuation;
        continue;
      }
      if (session.isStreaming) continue;
      return;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // MC-12 compression

  /**
   * MC-12 (compression.ts): one decision over the request about to be sent, then its action. Fail
   * closed at a send → an error event and the call is refused: it is never sent.
   */
  #compress(
    trigger: Exclude<CompressionTrigger, "open">,
    messages: readonly AgentMessage[],
    terminalOverflow = false,
  ): CompressionAction | undefined {
    const done = this.#compression.decide(
      trigger,
      messages,
      this.#context,
      this.emitCurrent,
      terminalOverflow,
    );
    if (done?.action === "fail-closed" && trigger === "next-send") {
      this.#refused = done.reason;
      this.emitCurrent?.({
        type: "error",
        message: `the request was not sent: ${done.reason}`,
        code: "compression_fail_closed",
      });
      throw new CompressionRefused(done.reason);
    }
    return done?.action;
  }

  /** Estimated tokens of the window the next call sends (system prompt, tools, messages). */
  #windowTokens(): number {
    this.#baseTokens ??= countTokens(this.config.systemPrompt) + countTokens(this.#toolsJson());
    return this.#baseTokens + estimateTokens(this.piSession?.messages ?? []);
  }

  /** The tool list as a request carries it (name, description, parameters), for the fixed part of a window. */
  #toolsJson(): string {
    return JSON.stringify(
      this.config.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // A product turn

  /**
   * Before the send, inside the lock: open the window (resume, self-heal or fresh), run the one
   * compression decision over the request, pass the unhealthy-session preparation (an idle direct
   * send takes the same path, MC-9), and put a pending handoff in front of the prompt.
   */
  async #prepare(prompt: string): Promise<string> {
    const preparation = this.#context.prepareSend(true);
    if (preparation.action === "rollover-then-send") {
      if (this.#open) await this.#closeWindow(preparation.reason);
      else if (this.#bootstrap) this.#bootstrap = { ...this.#bootstrap, reason: preparation.reason };
    }
    await this.#ensureOpen();
    const pending: Message = {
      role: "user",
      content: [{ type: "text", text: prompt }],
      timestamp: Date.now(),
    };
    if (this.#compress("next-send", [...(this.piSession?.messages ?? []), pending]) === "handoff-rebuild") {
      // MC-12 decided a handoff rebuild for this very send: the one rollover path performs it first.
      const again = this.#context.prepareSend(true);
      await this.#closeWindow(again.reason);
      await this.#ensureOpen();
    }
    return this.#compose(prompt);
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    const turn = this.#turns.begin();
    this.#evidence.reset();
    this.#refused = undefined;
    this.#overflowDecision = undefined;
    this.#turn = turn;
    this.#signal = signal;
    this.emitCurrent = (event) => {
      this.#evidence.observe(event);
      emit(event);
    };
    try {
      let text: string;
      try {
        text = await this.#lock.run(() => this.#prepare(prompt));
      } catch (error) {
        if (!(error instanceof CompressionRefused)) throw error;
        turn.attempt();
        turn.failed(error.message);
        return turn.outcome();
      }
      // What Pi offers the model this run, recorded; not the company's decision: the run fails.
      const mismatch = this.#reportTools(emit);
      if (mismatch !== undefined) {
        turn.attempt();
        turn.failed(mismatch);
        return turn.outcome();
      }
      let run: () => Promise<void> = () => this.#session().prompt(text, { expandPromptTemplates: false });
      // One attempt per loop: the first send, then at most the one replay the gate allows (MC-10).
      while (turn.attempt()) {
        this.#lastAssistant = undefined;
        this.#overflowCompacted = false;
        this.#open?.setApiKey(this.#piModel.provider, this.#apiKey());
        const session = this.#session();
        await run();
        await this.#settle(session);
        if (signal.aborted) {
          turn.cancel("cancelled by the operator");
          break;
        }
        // Read after the awaits: Pi's events set these while the run and its settling went on.
        const { last, overflow } = this.#attemptResult();
        if (overflow?.action === "fail-closed" && last?.stopReason === "error") {
          // The gate refused Pi's overflow continue; Pi's compaction already rebuilt the window.
          await this.#lock.run(async () => this.#compress("terminal-error", session.messages, false));
          turn.failed(last.errorMessage ?? "the model call failed");
          break;
        }
        // An answer cut at the output limit before it held anything is no answer: the run did
        // nothing, and "done" would say it had.
        if (last?.stopReason === "length" && !hasOutput(last)) {
          turn.failed(
            "the model's answer was cut at its output limit (max_tokens) before it wrote anything; give the model a larger maxOutput (the connector's config.models) or a smaller prompt",
          );
          break;
        }
        if (!last || (last.stopReason !== "error" && last.stopReason !== "aborted")) {
          turn.completed();
          break;
        }
        if (last.stopReason === "aborted") {
          turn.interrupted();
          break;
        }
        const next = await this.#recover(last, turn, signal, prompt);
        if (!next) break;
        run = next;
      }
    } catch (error) {
      turn.failed(errorMessage(error));
      throw error;
    } finally {
      // MC-9: a latched window is closed now and its handoff written; the fresh one starts at the
      // next send (in this process, or the next wake's). The latch itself stays live-only.
      if (this.#context.needsRollover && this.#open) {
        // Worded as the next send's preparation will say it (each product turn is an idle direct send).
        const reason = `idle direct send: needsRollover latched (${this.#context.latchReason ?? "rollover requested"})`;
        await this.#lock.run(() => this.#closeWindow(reason)).catch(() => undefined);
      }
      this.emitCurrent = undefined;
      this.#turn = undefined;
    }
    return turn.outcome();
  }

  /** The run's `harness_tools` event from Pi's own active tool list; returns the mismatch, if any. */
  #reportTools(emit: Emit): string | undefined {
    const expected = [...this.config.tools.map((t) => t.name), ...(this.#options.codingTools ?? [])];
    const report: HarnessToolsReport = {
      harness: "pi",
      tools: this.#session().getActiveToolNames(),
      mcpServers: [],
      expected,
      source: `Pi's active tools for the session (AgentSession.getActiveToolNames)${this.#options.workspace !== undefined && (this.#options.codingTools ?? []).length > 0 ? `; its file tools are rooted at ${this.#options.workspace} and refuse any path outside it` : ""}`,
    };
    const problem = this.#reported.check(report, toolListProblem("Pi", expected, report.tools));
    if (problem !== undefined) report.problem = problem;
    emit({ type: "harness_tools", ...report });
    if (problem !== undefined) emit({ type: "error", code: "harness_tools_mismatch", message: problem });
    return problem;
  }

  #attemptResult(): { last: AssistantMessage | undefined; overflow: RecoveryDecision | undefined } {
    return { last: this.#lastAssistant, overflow: this.#overflowDecision };
  }

  #session(): AgentSession {
    const session = this.piSession;
    if (!session) throw new Error(`session ${this.config.sessionId} has no open Pi session`);
    return session;
  }

  /**
   * After a failed model call Pi did not recover itself: the recovery rules decide (MC-10, MC-11).
   * Only a clean turn gets its ONE wire-only replay (into a fresh window when the session is
   * latched); everything else fails closed.
   */
  async #recover(
    failed: AssistantMessage,
    turn: ProductTurn,
    signal: AbortSignal,
    prompt: string,
  ): Promise<(() => Promise<void>) | undefined> {
    const emit = this.emitCurrent;
    const text = failed.errorMessage ?? "the model call failed";
    if (this.#refused !== undefined) {
      const refused = this.#refused;
      const forRollover = this.#refusedForRollover;
      this.#refused = undefined;
      this.#refusedForRollover = false;
      const evidence = this.#evidence.evidence();
      if (
        forRollover &&
        turn.attempts === 1 &&
        evidence.assistantOutput === false &&
        evidence.toolSideEffects === "none"
      ) {
        // Pi's own compaction before this send failed deterministically: the message was never
        // sent, so it goes to the fresh window (MC-9), which is no replay (MC-10).
        emit?.({
          type: "recovery",
          action: "replay",
          reason: `${refused}: the message was not sent; it goes to a fresh window from the handoff`,
        });
        turn.retry(refused);
        return async () => {
          const next = await this.#lock.run(() => this.#prepare(prompt));
          await this.#session().prompt(next, { expandPromptTemplates: false });
        };
      }
      // The call was refused before it was sent (MC-9, MC-12): nothing to recover.
      turn.failed(refused);
      return undefined;
    }
    this.#recovering = true;
    try {
      const decision = decideRecovery({
        harness: "pi",
        error: describeProviderError(text),
        evidence: this.#evidence.evidence(),
        replaysDone: turn.attempts - 1,
        afterCompactionRollover: this.#context.needsRollover,
        promptTimeout: this.#timedOut.has(failed),
      });
      emit?.({ type: "recovery", action: decision.action, reason: decision.reason });
      // MC-11: a Pi prompt timeout hands off at the next send, through the one rollover path.
      if (decision.handoff) this.#context.requestRollover(decision.reason);
      if (signal.aborted) {
        turn.cancel("cancelled by the operator");
        return undefined;
      }
      if (decision.action !== "replay") {
        // MC-12 at a terminal error. Timeouts and network failures never trigger it (MC-11); an
        // overflow Pi's native compaction already rebuilt (MC-8) no longer breaks the token budget.
        if (decision.kind === "context-overflow" || decision.kind === "other") {
          const session = this.piSession;
          await this.#lock.run(async () =>
            this.#compress(
              "terminal-error",
              session?.messages ?? [],
              decision.kind === "context-overflow" && !this.#overflowCompacted,
            ),
          );
        }
        turn.failed(text);
        return undefined;
      }
      turn.retry(text);
      this.#context.replayed();
      if (this.#context.needsRollover) {
        // MC-9 then MC-10: the latched window is closed first; the message goes to the fresh one.
        return async () => {
          const next = await this.#lock.run(() => this.#prepare(prompt));
          await this.#session().prompt(next, { expandPromptTemplates: false });
        };
      }
      // The failed call carried nothing: it leaves the transcript before the message is sent again.
      const session = this.#session();
      const messages = session.agent.state.messages;
      if (messages.at(-1) === failed) session.agent.state.messages = messages.slice(0, -1);
      const original = this.#continueOriginal;
      return async () => {
        await original?.();
      };
    } finally {
      this.#recovering = false;
    }
  }

  protected override onCancel(): void {
    // MC-9: a stop that interrupts a silent compaction only clears its "fired" flag; its failure is
    // recorded as interrupted, never classified (no latch), and nothing re-runs it at once.
    const session = this.piSession;
    if (this.#compactionOpen) {
      this.#context.controller.interruptSilentCompaction();
      session?.abortCompaction();
    }
    void session?.abort();
  }

  /** Cuts whole exchanges only: the first dropped message must be a user prompt, so no tool call loses its result. */
  protected override dropLastMessages(count: number): void {
    const session = this.piSession;
    const messages = (session?.agent.state.messages ?? []) as Message[];
    const valid = messages.flatMap((m, i) => (m.role === "user" ? [messages.length - i] : [])).reverse();
    if (!session || !Number.isInteger(count) || !valid.includes(count)) {
      throw new UserInputError(
        `rewind: cannot drop ${count} message(s) of ${messages.length}; a rewind drops whole exchanges, starting at a user prompt. Valid counts: ${valid.join(", ") || "none (the transcript is empty)"}`,
      );
    }
    const first = messages[messages.length - count];
    // The session file keeps the dropped branch; the next entry continues from before it.
    const manager = session.sessionManager;
    const entry = manager.getBranch().find((e) => e.type === "message" && e.message === first);
    if (entry?.parentId) manager.branch(entry.parentId);
    else if (entry) manager.resetLeaf();
    session.agent.state.messages = messages.slice(0, messages.length - count);
  }
}
