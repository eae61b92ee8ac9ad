// The Codex harness: a BaseAgent over @openai/codex-sdk. Each SDK turn is one `codex exec
// --experimental-json` run on the session's thread (the first starts it, later ones resume it), and
// its JSONL events come back through the codex translator. Codex runs the agent loop and starts the
// MCP servers itself, so the company tools reach it as a stdio MCP server (`cadre mcp --agent ID`)
// named in its configuration; the Cadre prompt is appended to Codex's own instructions as
// `developer_instructions` (MC-3: harness preset first, product append after). Codex compacts natively
// (MC-8); the host consumes what the stream says about it, and a latched rollover (MC-9) starts a new
// thread from the handoff instead of resuming the old one.
//
// What the company decided, it gets (config.ts): its MCP servers, required and loaded up
// front (model-catalog.ts), the built-ins the policy allows and no others; the run's first event says
// what Codex was given (handshake.ts: Codex itself reports nothing about MCP startup), and a company
// tool missing from it fails the run at once. A product turn may hold open over an exec yield
// (MC-14, exec-yield.ts): a claim minted on the terminal boundary, one continuation turn at a time
// asking the model to wait on the same work, settled by proof or ended as `lost-handle`.
//
// Why the SDK and not `codex app-server`: the SDK's exec stream is the format our translator and its
// fixtures cover, it is the vendor's supported embedding, and everything this harness needs — resume
// by thread id, per-run config (MCP servers, instructions), abort — it offers. The app-server would
// add in-process interrupts and approvals over JSON-RPC, which a headless `never`-approval company
// does not use; a cancel here stops the exec process, after which the thread stays resumable.
import { randomUUID } from "node:crypto";
import { mkdir, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CodexOptions, ThreadEvent, ThreadOptions } from "@openai/codex-sdk";
import { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "../../agent/base-agent.js";
import { CODEX_RECONNECT_WATCHDOG_MS } from "../../context/timeout-policy.js";
import { TurnSettlement, type ContinuationEvidence } from "../../context/turn-settlement.js";
import { errorMessage, UserInputError } from "../../errors.js";
import { mcpToolName } from "../../mcp/names.js";
import type { PromptSegment } from "../../prompt/assemble.js";
import { type ModelCallPrefix, PromptPrefixChangedError } from "../../prompt/prefix-guard.js";
import { TRUNCATED } from "../../translators/errors.js";
import type { JsonObject } from "../../translators/json.js";
import type {
  HarnessSessionState,
  NativeSessionRef,
  SessionBootstrap,
  SessionContinuation,
} from "../../session/harness-session.js";
import type { AgentEvent, ContextSnapshot, HarnessToolsReport } from "../../types.js";
import { HandedPrefixGuard } from "../handed-prefix.js";
import { HarnessContext } from "../harness-context.js";
import { ReportedTools, toolListProblem } from "../tool-report.js";
import { codexConfig, type CodexMcpServer, type CodexProvider } from "./config.js";
import {
  continuationPrompt,
  ExecYieldDetector,
  lostHandleReason,
  type YieldedCommand,
} from "./exec-yield.js";
import { readHandshakes } from "./handshake.js";
import { bundledCodex } from "./locate.js";
import { codexModelCatalog } from "./model-catalog.js";
import { type CodexPolicy, codexBuiltinTools, DEFAULT_CODEX_POLICY } from "./policy.js";
import { codexHome, threadTotals } from "./rollout.js";
import {
  CODEX_LOG_FILTER,
  failureWithStatus,
  providerStatus,
  withoutResponseLines,
} from "./provider-status.js";
import { RolloutMeter, type RolloutRecord, rolloutSize } from "./rollout-meter.js";
import { codexTranslator, type CodexTranslator } from "./translate/translator.js";
import type { CodexLine } from "./translate/wire.js";
import { isReconnectNotice, RunWatchdog } from "./watchdog.js";
import { CodexWindowReading } from "./window-reading.js";

export type { CodexMcpServer, CodexProvider } from "./config.js";

/** Codex's file tool (a member's), and how Codex answers a patch its sandbox and approval policy refuse. */
const PATCH_TOOL = "apply_patch";
const PATCH_REFUSED = /^patch rejected\b/;

export interface CodexAgentOptions extends Omit<SessionContinuation, "resume"> {
  /** Codex to start; default the binary of @openai/codex's platform package. Started directly (a script needs a shebang). */
  executablePath?: string;
  /** The Codex process's whole environment (the SDK does not merge it with ours); default ours. */
  env?: Record<string, string | undefined>;
  /** Working directory of the Codex run (the agent's working folder). */
  cwd?: string;
  policy?: CodexPolicy;
  /** MCP servers by name: the company tools (`cadre mcp --agent ID`). */
  mcpServers?: Readonly<Record<string, CodexMcpServer>>;
  /** The connector's own model server (Responses wire), as Codex's model provider; default Codex's own. */
  provider?: CodexProvider;
  /**
   * A Codex thread to continue on the first turn (later turns always resume this session's own). The
   * thread.started line must name that very thread; a thread Codex cannot find ("no rollout found")
   * gets one self-heal: a fresh thread from the handoff (the digest of earlier wakes and this
   * session), recorded as a `session` self-healed and a rollover event. A `bootstrap` wins: the old
   * thread was closed for good, never resumed.
   */
  resume?: string | NativeSessionRef;
  /** Explicit override of the 90% compaction threshold (MC-8), a fraction in (0, 1]; Codex compacts natively. */
  compactThreshold?: number;
  /** Reconnect watchdog: a run with no progress this long is closed as failed (MC-11 fallback, never a recovery). Default 120 s. */
  watchdogMs?: number;
  /**
   * A provider Codex cannot reach: once Codex says it is reconnecting, a run with no progress this
   * long is closed as failed, with what Codex last said. Default 30 s (at most `watchdogMs`).
   */
  unreachableMs?: number;
  /** The assembled prompt's segments: every turn's hand-over is checked against them (MC-3). */
  segments?: readonly PromptSegment[];
  /** Called once per exec run handed to Codex, after its stable prefix passed the check. */
  onTurnPrefix?: (prefix: ModelCallPrefix) => void;
  /** Continuation turns one exec-yield claim may run while its work still reports running (MC-14). Default 2. */
  continuationBudget?: number;
}

/** How the session's requested resume went, for the caller's session record. */
export type CodexResumeOutcome = "none" | "resumed" | "healed";

/** How often a running exec's rollout file is read for the calls Codex made. */
const METER_POLL_MS = 250;

/** Default bound on a provider Codex cannot reach: the wake ends within it, saying so. */
export const CODEX_UNREACHABLE_MS = 30_000;

/** Codex's answer to `exec resume ID` for a thread it has no rollout of (0.163). */
const MISSING_THREAD = /no rollout found/i;

/** One exec run's end, as the product turn's settlement needs it. */
interface ExecRun {
  outcome: TurnOutcome;
  /** Lines Codex wrote. */
  received: number;
  /** The thread to resume does not exist (Codex's error text); nothing of the run was translated. */
  resumeMissing?: string;
}

interface ExecHooks {
  /** The first line arrived: Codex accepted the run (a continuation start is accepted then). */
  onStarted?: () => void;
  detector: ExecYieldDetector;
  /** A signal of this SDK turn only (its tombstone interrupts it), beside the product turn's. */
  abort: AbortSignal;
}

export class CodexAgent extends BaseAgent {
  readonly #options: CodexAgentOptions;
  readonly #policy: CodexPolicy;
  readonly #threadOptions: ThreadOptions;
  /** The session's thread, once Codex named it (thread.started). */
  #threadId: string | undefined;
  #resumeRequested: string | undefined;
  #resumeOutcome: CodexResumeOutcome = "none";
  #healed = false;
  /** Why the resume failed and was healed, for the session record. */
  #healReason: string | undefined;
  /** A rollover closed the resumed thread: the next run starts a new one (MC-9). */
  private rolledOver = false;
  /** This object started a thread from a handoff (a rollover, a bootstrap or a self-heal). */
  private threadRolledOver = false;
  /** A handoff left for this session (a thread closed between wakes): the first send starts from it. */
  private bootstrapPending: SessionBootstrap | undefined;
  /** The session's context policy (MC-8, MC-9): occupancy, latch, digest, handoff items. */
  private readonly context: HarnessContext;
  private readonly window: CodexWindowReading;
  /**
   * One translator for the session: Codex reports thread-cumulative usage on every turn.completed
   * (resumed runs included), and the translator turns those totals into per-turn increments.
   */
  private readonly translator: CodexTranslator = codexTranslator();
  private line = 0;
  private readonly watchdogMs: number;
  private readonly unreachableMs: number;
  readonly #prefix: HandedPrefixGuard;
  readonly #reported = new ReportedTools();
  /** Where the session's MCP servers record the tools/list answers they give Codex (handshake.ts). */
  readonly #handshakeFile: string;
  #catalog: Promise<string> | undefined;
  /** MC-14: the product turns of this session, their SDK turns and continuation claims. */
  readonly #settlement: TurnSettlement<undefined>;
  readonly #settled = new Map<string, (outcome: TurnOutcome) => void>();
  /** Abort of each live SDK turn: a tombstone interrupts it. */
  readonly #running = new Map<string, AbortController>();
  #turnSeq = 0;
  /** The thread's rollout file, read as Codex writes it: every model call's usage, every refused call. */
  #meter: RolloutMeter | undefined;
  /** The tools Codex was given (its thread's harness_tools report): a call to any other is refused. */
  #offered: ReadonlySet<string> = new Set();
  /** Refused calls whose answer (Codex's error text) is still to come. */
  readonly #refusedCalls = new Map<string, string>();
  /** apply_patch calls whose answer is still to come: a patch the sandbox refused is shown from it. */
  readonly #patchCalls = new Map<string, unknown>();

  constructor(config: SessionConfig, options: CodexAgentOptions = {}) {
    super(config);
    this.#options = options;
    this.#policy = options.policy ?? DEFAULT_CODEX_POLICY;
    const threadOptions: ThreadOptions = {
      model: config.model.id,
      sandboxMode: this.#policy.sandboxMode,
      approvalPolicy: this.#policy.approvalPolicy,
      webSearchMode: this.#policy.webSearch ? "live" : "disabled",
      skipGitRepoCheck: true,
      // Codex's own commands and patches reach no network: the company tools act through MCP.
      networkAccessEnabled: false,
    };
    if (options.cwd !== undefined) threadOptions.workingDirectory = options.cwd;
    this.#threadOptions = threadOptions;
    this.bootstrapPending = options.bootstrap;
    // A handoff left for this session means the old thread is closed for good: never resumed.
    this.#resumeRequested = options.bootstrap
      ? undefined
      : typeof options.resume === "string"
        ? options.resume
        : options.resume?.id;
    this.#prefix = new HandedPrefixGuard(options.segments);
    this.#handshakeFile = join(tmpdir(), "cadre-codex", `mcp-handshake-${randomUUID()}.jsonl`);
    this.context = new HarnessContext({
      harness: "codex",
      model: config.model,
      ...(options.compactThreshold !== undefined ? { thresholdOverride: options.compactThreshold } : {}),
      ...(options.digest ? { digest: options.digest } : {}),
    });
    this.window = new CodexWindowReading({ resumed: this.#resumeRequested !== undefined });
    // The resumed window's size as last seen (display, MC-13); the thread's usage baseline is its
    // rollout file's (MC-15, read at the first run).
    if (this.#resumeRequested !== undefined) this.context.session.resumeAt(options.tokensInWindow ?? 0);
    const watchdogMs = options.watchdogMs ?? CODEX_RECONNECT_WATCHDOG_MS;
    if (!Number.isFinite(watchdogMs) || watchdogMs <= 0)
      throw new UserInputError(`watchdogMs must be a positive number of milliseconds (got ${watchdogMs})`);
    this.watchdogMs = watchdogMs;
    const unreachableMs = options.unreachableMs ?? Math.min(CODEX_UNREACHABLE_MS, watchdogMs);
    if (!Number.isFinite(unreachableMs) || unreachableMs <= 0)
      throw new UserInputError(
        `unreachableMs must be a positive number of milliseconds (got ${unreachableMs})`,
      );
    this.unreachableMs = unreachableMs;
    this.#settlement = new TurnSettlement<undefined>(
      {
        terminal: (id, event) => {
          const resolve = this.#settled.get(id);
          this.#settled.delete(id);
          resolve?.(
            event.reason === undefined
              ? { status: event.status }
              : { status: event.status, reason: event.reason },
          );
        },
        interrupt: (sdkTurnId) => this.#running.get(sdkTurnId)?.abort(),
      },
      { continuationBudget: options.continuationBudget ?? 2 },
    );
  }

  protected override contextSnapshot(): ContextSnapshot | undefined {
    const id = this.vendorSessionId;
    return this.context.session.snapshot(
      this.#settlement.openClaims(),
      id !== undefined ? { sessionId: id } : {},
    );
  }

  protected override harnessSessionState(): HarnessSessionState {
    const id = this.vendorSessionId;
    const totals = this.translator.totals();
    return {
      harness: "codex",
      ref: id !== undefined ? { id } : undefined,
      resumed: this.#resumeOutcome === "resumed",
      rolledOver: this.threadRolledOver,
      ...(this.#healReason !== undefined ? { selfHealed: this.#healReason } : {}),
      ...(this.bootstrapPending ? { pendingBootstrap: this.bootstrapPending } : {}),
      digest: this.context.digest(),
      model: this.config.model.id,
      tokensInWindow: this.context.session.tokensInWindow,
      ...(totals ? { vendorTotals: totals } : {}),
    };
  }

  /** Codex's thread id (known once the first run started); later turns resume it. */
  get vendorSessionId(): string | undefined {
    return this.#threadId ?? (this.rolledOver ? undefined : this.#resumeRequested);
  }

  /** Whether the requested thread was resumed (its id confirmed by Codex) or healed by a fresh one. */
  get resumeOutcome(): CodexResumeOutcome {
    return this.#resumeOutcome;
  }

  /** The tools the session offers the model, by the names Codex gives them: the company's decision. */
  get decidedTools(): string[] {
    const servers = this.#options.mcpServers ?? {};
    const mcp = Object.entries(servers).flatMap(([name, server]) =>
      (server.enabledTools ?? this.config.tools.map((t) => t.name)).map((t) => mcpToolName(t, name)),
    );
    return [...codexBuiltinTools(this.#policy, Object.keys(servers).length), ...mcp];
  }

  /**
   * MC-9 rollover: the latched thread is closed for good (never resumed again); a new thread starts
   * from the code-built handoff, with this send's prompt after it.
   */
  private rollover(prompt: string, reason: string, emit: Emit): string {
    const fresh = this.context.rollover(prompt, reason);
    this.newThread();
    this.threadRolledOver = true;
    emit(fresh.event);
    return fresh.prompt;
  }

  private newThread(): void {
    this.#threadId = undefined;
    this.rolledOver = true;
    this.#resumeRequested = undefined;
    this.translator.newThread();
    this.window.newThread();
    this.#meter = undefined;
    this.#refusedCalls.clear();
    this.#patchCalls.clear();
  }

  /**
   * What the rollout says Codex did, as events: each model call's usage (the running total's growth,
   * counted once against the thread's totals, MC-15) and each call to a tool Codex was not given — a
   * `tool_use` marked refused and its `tool_result` with Codex's answer, an error.
   */
  #book(records: readonly RolloutRecord[], out: AgentEvent[]): boolean {
    let called = false;
    for (const r of records) {
      if (r.type === "call_usage" || r.type === "total") {
        const before = out.length;
        // A call's record comes first; its running total then adds nothing (counted once, MC-15).
        if (r.type === "call_usage") this.translator.addCall(r.usage, out);
        else this.translator.advance(r.total, out);
        called ||= out.length > before;
      } else if (r.type === "call") {
        if (r.name === PATCH_TOOL && this.#offered.has(r.name)) this.#patchCalls.set(r.callId, r.input);
        if (this.#offered.has(r.name)) continue; // run by Codex: the exec stream reports it
        this.#refusedCalls.set(r.callId, r.name);
        out.push({ type: "tool_use", id: r.callId, name: r.name, input: r.input, refused: true });
      } else {
        const patch = this.#patchCalls.get(r.callId);
        this.#patchCalls.delete(r.callId);
        // A patch Codex's sandbox refused (e.g. a file outside the workspace) never reaches the exec
        // stream, which reports only the changes made: the refusal is shown from Codex's answer.
        if (patch !== undefined && PATCH_REFUSED.test(r.text)) {
          out.push({ type: "tool_use", id: r.callId, name: PATCH_TOOL, input: patch });
          out.push({
            type: "tool_result",
            toolUseId: r.callId,
            name: PATCH_TOOL,
            content: [{ type: "text", text: r.text }],
            isError: true,
          });
          continue;
        }
        const name = this.#refusedCalls.get(r.callId);
        if (name === undefined) continue;
        this.#refusedCalls.delete(r.callId);
        out.push({
          type: "tool_result",
          toolUseId: r.callId,
          name,
          content: [{ type: "text", text: r.text }],
          isError: true,
        });
      }
    }
    return called;
  }

  /** Every event feeds the context policy before it reaches the stream (MC-8). */
  private observe(event: AgentEvent, emit: Emit): void {
    const tokens = this.window.observe(event);
    if (tokens !== undefined)
      this.context.session.observeUsage({ input: tokens, output: 0, cacheRead: 0, cacheWrite: 0 });
    // Codex compacts by itself: every compaction is a silent one (a remote-compact hard failure latches, MC-9).
    this.context.observe(event, "silent");
    emit(event);
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    // MC-9: each product turn is an idle direct send and passes the same preparation. Ordinary
    // timeouts and lone stripped-reasoning errors never latch, so they never get here (MC-11).
    const preparation = this.context.prepareSend();
    const boot = this.bootstrapPending;
    let input = prompt;
    if (preparation.action === "rollover-then-send") {
      this.bootstrapPending = undefined;
      input = this.rollover(prompt, preparation.reason, emit);
    } else if (boot) {
      // The old thread was closed before this session existed: a new one starts from its handoff.
      this.bootstrapPending = undefined;
      const fresh = this.context.bootstrap(prompt, boot);
      this.threadRolledOver = true;
      emit(fresh.event);
      input = fresh.prompt;
    }
    this.context.transcript.prompt(prompt);

    // MC-14: the product turn is open until the ledger settles it; its one terminal is the outcome.
    const productId = `${this.config.sessionId}#turn-${++this.#turnSeq}`;
    const settled = new Promise<TurnOutcome>((resolve) => this.#settled.set(productId, resolve));
    this.#settlement.begin(productId, undefined);
    const onAbort = () => this.#settlement.cancel(productId, "cancelled by the operator");
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    try {
      let origin = `${productId}/origin`;
      let detector = new ExecYieldDetector();
      let run = await this.#sdkTurn(productId, origin, input, emit, signal, detector);
      if (run?.resumeMissing !== undefined && !this.#healed && this.#settlement.isTurnRunning(productId)) {
        // One bounded self-heal of a resume that cannot work: a fresh thread from the handoff, recorded.
        this.#healed = true;
        this.#settlement.providerFailed(origin, run.resumeMissing, { retry: true });
        origin = `${productId}/origin-healed`;
        const previousId = this.#resumeRequested ?? "?";
        const reason = `resume of Codex thread ${previousId} failed (${run.resumeMissing}); a fresh thread starts from the handoff (one self-heal, never retried)`;
        const fresh = this.context.heal(prompt, reason, this.#resumeRequested);
        this.newThread();
        this.#resumeOutcome = "healed";
        this.#healReason = reason;
        this.threadRolledOver = true;
        emit({ type: "session", action: "self-healed", harness: "codex", previousId, reason });
        emit(fresh.event);
        detector = new ExecYieldDetector();
        run = await this.#sdkTurn(productId, origin, fresh.prompt, emit, signal, detector);
      }
      const yields = detector.yielded();
      if (run !== undefined) this.#settleOrigin(origin, run, yields);
      await this.#continuations(productId, yields, emit, signal);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    return settled;
  }

  /** The origin SDK turn ended: settle it, minting a claim on its terminal boundary when it left work running. */
  #settleOrigin(sdkTurnId: string, run: ExecRun, yields: readonly YieldedCommand[]): void {
    if (run.outcome.status === "done")
      this.#settlement.providerCompleted(sdkTurnId, { claim: yields.length > 0 });
    else if (run.outcome.status === "failed")
      this.#settlement.providerFailed(sdkTurnId, run.outcome.reason ?? "the Codex turn failed");
    else this.#settlement.providerInterrupted(sdkTurnId);
  }

  /**
   * MC-14: while a claim holds the product turn open, one continuation turn at a time asks the model
   * to wait on the same work; its proof settles the claim, a still-running report waits again within
   * the budget, anything else ends it as lost-handle. The original request is never replayed.
   */
  async #continuations(
    productId: string,
    yields: readonly YieldedCommand[],
    emit: Emit,
    signal: AbortSignal,
  ): Promise<void> {
    let attempt = 0;
    for (;;) {
      const [claimId] = this.#settlement.openClaims(productId);
      if (claimId === undefined || !this.#settlement.canStartContinuation(claimId)) return;
      attempt += 1;
      emit({
        type: "continuation",
        claimId,
        action: "opened",
        attempt,
        reason: `Codex ended its turn while ${yields.map((y) => `\`${y.command}\``).join(", ")} was still running (an exec yield); the host asks the model to wait on it`,
      });
      const sdkTurnId = `${productId}/continuation-${attempt}`;
      const detector = new ExecYieldDetector();
      let accepted = false;
      const run = await this.#exec(continuationPrompt(yields), emit, signal, {
        detector,
        abort: this.#abortFor(sdkTurnId),
        onStarted: () => {
          accepted = true;
          // Accepted after a Stop: tombstoned by id and interrupted, nothing reported again.
          this.#settlement.attachSdkTurn(productId, sdkTurnId, claimId);
        },
      });
      this.#running.delete(sdkTurnId);
      if (!accepted) {
        if (this.#settlement.isTurnRunning(productId))
          this.#settlement.continuationStartFailed(claimId, run.outcome.reason ?? "Codex did not start");
        return;
      }
      if (run.outcome.status === "failed") {
        this.#settlement.providerFailed(sdkTurnId, run.outcome.reason ?? "the continuation failed");
        return;
      }
      if (run.outcome.status === "cancelled" || !this.#settlement.isTurnRunning(productId)) return;
      const proof = detector.evidence();
      this.#reportEvidence(claimId, attempt, proof, yields, emit);
      this.#settlement.providerCompleted(sdkTurnId, { evidence: proof.evidence });
    }
  }

  /** What the continuation proved, as events: the claim settled, still waiting, or its handle lost. */
  #reportEvidence(
    claimId: string,
    attempt: number,
    proof: { evidence: ContinuationEvidence; marker?: string },
    yields: readonly YieldedCommand[],
    emit: Emit,
  ): void {
    const budget = this.#options.continuationBudget ?? 2;
    if (proof.evidence === "work-running" && attempt < budget) return; // the next continuation waits again
    const settled = proof.evidence === "work-settled";
    const reason = settled
      ? `the work Codex left running ended ("${proof.marker ?? ""}")`
      : proof.evidence === "work-running"
        ? `still running after ${attempt} continuation(s); Cadre stops waiting (the budget is ${budget})`
        : lostHandleReason(yields);
    emit({ type: "continuation", claimId, action: settled ? "settled" : "lost-handle", attempt, reason });
    for (const y of yields)
      emit({
        type: "tool_result",
        toolUseId: y.itemId,
        name: "command_execution",
        content: [{ type: "text", text: settled ? (proof.marker ?? "") : reason }],
        isError: !settled,
      });
  }

  #abortFor(sdkTurnId: string): AbortSignal {
    const abort = new AbortController();
    this.#running.set(sdkTurnId, abort);
    return abort.signal;
  }

  /** One SDK turn of the product turn (the origin or a healed retry of it); undefined when the turn already ended. */
  async #sdkTurn(
    productId: string,
    sdkTurnId: string,
    input: string,
    emit: Emit,
    signal: AbortSignal,
    detector: ExecYieldDetector,
  ): Promise<ExecRun | undefined> {
    if (this.#settlement.attachSdkTurn(productId, sdkTurnId) === "tombstoned") return undefined;
    try {
      return await this.#exec(input, emit, signal, { detector, abort: this.#abortFor(sdkTurnId) });
    } finally {
      this.#running.delete(sdkTurnId);
    }
  }

  /** The per-run Codex options: what the company decided, checked against the session's first run (MC-3). */
  async #codexOptions(): Promise<CodexOptions> {
    const o = this.#options;
    const executable = o.executablePath ?? bundledCodex();
    if (executable !== undefined)
      this.#catalog ??= codexModelCatalog(executable, this.config.model, this.#policy.fileTools === true);
    const catalog =
      this.#catalog === undefined
        ? undefined
        : await this.#catalog.catch((error: unknown) => {
            this.#catalog = undefined;
            throw error;
          });
    const options: CodexOptions = {
      config: codexConfig({
        systemPrompt: this.config.systemPrompt,
        toolNames: this.config.tools.map((t) => t.name),
        mcpServers: o.mcpServers ?? {},
        shell: this.#policy.shell,
        confined: this.#policy.sandboxMode === "workspace-write",
        handshakeFile: this.#handshakeFile,
        ...(o.provider !== undefined ? { provider: o.provider } : {}),
        ...(catalog !== undefined ? { modelCatalog: catalog } : {}),
      }),
    };
    if (o.executablePath !== undefined) options.codexPathOverride = o.executablePath;
    // Codex's HTTP client logs each response's status (provider-status.ts); an operator's own
    // RUST_LOG wins.
    const env = o.env ?? process.env;
    options.env = definedOnly({ ...env, RUST_LOG: env["RUST_LOG"] ?? CODEX_LOG_FILTER });
    return options;
  }

  /** One `codex exec` run: what the old single-run adapter did, plus the hand-over, tool and resume checks. */
  async #exec(input: string, emit: Emit, signal: AbortSignal, hooks: ExecHooks): Promise<ExecRun> {
    const out: AgentEvent[] = [];
    const flush = () => {
      for (let i = 0; i < out.length; i++) this.observe(out[i]!, emit);
      out.length = 0;
    };
    let options: CodexOptions;
    try {
      options = await this.#codexOptions();
      // MC-3: what this run hands Codex must be the session's first hand-over, byte for byte.
      const prefix = this.#prefix.check(this.config.systemPrompt, this.config.tools, {
        config: options.config,
        thread: this.#threadOptions,
      });
      this.#options.onTurnPrefix?.(prefix);
    } catch (error) {
      const message = errorMessage(error);
      const code = error instanceof PromptPrefixChangedError ? error.code : "harness_start_failed";
      emit({ type: "error", code, message });
      return { outcome: { status: "failed", reason: message }, received: 0 };
    }
    // A resumed thread's totals so far come from its rollout (MC-15), so its first total is an increment.
    const resuming = this.#threadId ?? (this.rolledOver ? undefined : this.#resumeRequested);
    if (this.#threadId === undefined && resuming !== undefined) {
      const home = codexHome(this.#options.env ?? process.env);
      const totals = await threadTotals(home, resuming);
      if (totals) {
        this.translator.resumeFrom(totals);
        this.window.baselineKnown();
      }
      // What the file holds now was counted by the wakes that wrote it: the meter reads on from here.
      this.#meter = new RolloutMeter(home, resuming, await rolloutSize(home, resuming));
    }
    await mkdir(dirname(this.#handshakeFile), { recursive: true });
    const recorded = (await readHandshakes(this.#handshakeFile)).length;
    let received = 0;
    let reconnects = 0;
    let ended: ThreadEvent | undefined; // turn.completed or turn.failed
    // A turn's failure (its error line, then turn.failed) is translated once Codex exited: its log
    // then names the provider's HTTP status, said in the one error the translator reports.
    const failing: ThreadEvent[] = [];
    let failure: string | undefined;
    let refused: string | undefined;
    let started = false;
    const watchdog = new RunWatchdog(this.watchdogMs, anySignal(signal, hooks.abort), this.unreachableMs);
    let lastNotice: string | undefined;
    // Every model call Codex makes is booked as it is answered, whatever ends the turn.
    const meter = async () => {
      const m = this.#meter;
      if (m === undefined) return;
      const records = await m.read().catch(() => []);
      const booked: AgentEvent[] = [];
      // A model call answered is progress, whatever the exec stream said meanwhile.
      if (this.#book(records, booked)) watchdog.reset();
      for (const event of booked) this.observe(event, emit);
    };
    const poll = setInterval(() => void meter(), METER_POLL_MS);
    poll.unref();
    try {
      const { Codex } = await import("@openai/codex-sdk");
      const codex = new Codex(options);
      const thread =
        resuming !== undefined
          ? codex.resumeThread(resuming, this.#threadOptions)
          : codex.startThread(this.#threadOptions);
      // A cancel, a tombstone or the watchdog aborts the exec process (the SDK passes the signal to spawn).
      const { events } = await thread.runStreamed(input, { signal: watchdog.signal });
      for await (const event of events) {
        received++;
        if (received === 1) hooks.onStarted?.();
        const line = event as unknown as CodexLine;
        // Reconnect notices are not progress: only progress resets the watchdog.
        if (isReconnectNotice(line)) {
          reconnects++;
          lastNotice = line.message ?? line.item?.message;
          watchdog.reconnecting();
        } else watchdog.reset();
        if (event.type === "thread.started" && !started) {
          started = true;
          refused = await this.#threadStarted(event.thread_id, resuming, recorded, emit);
          if (refused !== undefined) {
            watchdog.abortRun();
            break;
          }
        }
        // The rollout's calls of this turn first: each call's usage before the turn's end.
        if (event.type === "turn.completed" || event.type === "turn.failed") await meter();
        hooks.detector.observe(line);
        if (event.type === "turn.failed" || (event.type === "error" && !isReconnectNotice(line)))
          failing.push(event);
        else this.translator.record(event as unknown as JsonObject, ++this.line, out);
        flush();
        // Backpressure: a consumer that fell behind pauses the reading of the harness's stream.
        const room = this.roomForEvents();
        if (room) await room;
        if (event.type === "turn.completed" || event.type === "turn.failed") ended = event;
      }
    } catch (error) {
      // The SDK throws when the process fails to start, is aborted or exits non-zero.
      failure = errorMessage(error);
    } finally {
      clearInterval(poll);
      watchdog.stop();
      await unlink(this.#handshakeFile).catch(() => undefined);
    }
    // Whatever ended the run, what Codex wrote of it is booked before the turn ends.
    await meter();
    const status = providerStatus(failure);
    if (failure !== undefined) failure = withoutResponseLines(failure);
    const failedTurn = failing.some((e) => e.type === "turn.failed");
    for (const held of failing) {
      let said = held;
      if (failedTurn && said.type === "turn.failed")
        ended = said = { ...said, error: { message: failureWithStatus(said.error.message, status) } };
      else if (failedTurn && said.type === "error")
        said = { ...said, message: failureWithStatus(said.message, status) };
      this.translator.record(said as unknown as JsonObject, ++this.line, out);
    }
    flush();

    const result = (outcome: TurnOutcome): ExecRun => ({ outcome, received });
    if (refused !== undefined) return result({ status: "failed", reason: refused });
    if (signal.aborted || (hooks.abort.aborted && !watchdog.fired)) {
      if (ended === undefined) this.translator.end(out, "the turn was cancelled");
      flush();
      return result({ status: "cancelled", reason: "cancelled by the operator" });
    }
    if (watchdog.unreachable && ended === undefined) {
      // A provider Codex cannot reach ends the wake within the bound, with what Codex said.
      const said = lastNotice !== undefined ? ` (Codex's last word: "${lastNotice}")` : "";
      const reason = `the model provider could not be reached for ${Math.round(this.unreachableMs / 1000)} s${said}; Cadre closed the turn (report only: no rollover, no replay)`;
      closeTurnQuietly(this.translator, out, reason);
      flush();
      emit({ type: "error", code: "provider_unreachable", message: reason });
      return result({ status: "failed", reason });
    }
    if (watchdog.fired && ended === undefined) {
      // MC-11: the watchdog only closes the turn out; no rollover, replay or auto-continue follows.
      const notices = reconnects > 0 ? `; Codex only said it was reconnecting (${reconnects} notice(s))` : "";
      const reason = `no progress from Codex for ${Math.round(this.watchdogMs / 1000)} s${notices}; the reconnect watchdog closed the turn (report only: no rollover, no replay)`;
      closeTurnQuietly(this.translator, out, reason);
      flush();
      emit({ type: "error", code: "watchdog", message: reason });
      return result({ status: "failed", reason });
    }
    if (ended?.type === "turn.failed") return result({ status: "failed", reason: ended.error.message }); // the translator reported it
    if (ended?.type === "turn.completed") {
      if (failure === undefined) return result({ status: "done" });
      emit({
        type: "error",
        code: "harness_exit",
        message: `Codex failed after its turn completed: ${failure}`,
      });
      return result({ status: "failed", reason: failure });
    }
    if (received === 0 && failure !== undefined) {
      if (
        resuming !== undefined &&
        this.#threadId === undefined &&
        !this.#healed &&
        MISSING_THREAD.test(failure)
      )
        return {
          outcome: { status: "failed", reason: missingThreadText(failure) },
          received,
          resumeMissing: missingThreadText(failure),
        };
      emit({ type: "error", code: "harness_start_failed", message: `Codex did not start: ${failure}` });
      return result({ status: "failed", reason: failure });
    }
    // Cut before turn.completed: the translator closes the open turn and says so (never a hang).
    this.translator.end(
      out,
      failure !== undefined ? `Codex stopped (${failure})` : "the Codex process ended",
    );
    flush();
    return result({ status: "failed", reason: failure ?? "the Codex stream ended before turn.completed" });
  }

  /**
   * thread.started: the thread Codex runs (it must be the one asked for) and what it was given — the
   * run's `harness_tools` event. Returns why the run must stop, if it must.
   */
  async #threadStarted(
    threadId: string,
    resuming: string | undefined,
    recorded: number,
    emit: Emit,
  ): Promise<string | undefined> {
    const servers = this.#options.mcpServers ?? {};
    const records = (await readHandshakes(this.#handshakeFile)).slice(recorded);
    const mcpServers = Object.entries(servers).map(([name, server]) => {
      const record = records.findLast((r) => r.server === name);
      const enabled = server.enabledTools ?? this.config.tools.map((t) => t.name);
      const tools = (record?.tools ?? []).filter((t) => enabled.includes(t)).map((t) => mcpToolName(t, name));
      const status = record
        ? `ready (required; answered tools/list to ${record.client ? `${record.client.name} ${record.client.version}` : "Codex"})`
        : "started (required), but it recorded no tools/list answer";
      return { name, status, tools };
    });
    const report: HarnessToolsReport = {
      harness: "codex",
      tools: [...codexBuiltinTools(this.#policy, mcpServers.length), ...mcpServers.flatMap((s) => s.tools)],
      mcpServers,
      expected: this.decidedTools,
      source:
        "Codex's exec stream reports no MCP startup: the MCP tools are the tools/list answer `cadre mcp` recorded for Codex (a required server, so a started thread proves Codex had it), limited to enabled_tools; the built-ins are the ones Cadre's Codex configuration leaves on (Codex cannot be asked)",
    };
    let problem = toolListProblem("Codex", report.expected, report.tools);
    problem = this.#reported.check(report, problem);
    if (problem !== undefined) report.problem = problem;
    emit({ type: "harness_tools", ...report });
    if (problem !== undefined) {
      emit({ type: "error", code: "harness_tools_mismatch", message: problem });
      return problem;
    }
    if (resuming !== undefined && this.#threadId === undefined) {
      if (threadId !== resuming) {
        const why = `asked Codex to resume thread ${resuming}, but it started thread ${threadId}: the conversation would not be the one this agent had`;
        emit({ type: "error", code: "resume_mismatch", message: why });
        return why;
      }
      if (this.#resumeOutcome === "none") {
        this.#resumeOutcome = "resumed";
        emit({ type: "session", action: "resumed", harness: "codex", id: threadId });
      }
    }
    // A new thread is named at once: a run lost with its process is reconciled from its rollout by it.
    if (resuming === undefined && this.#threadId !== threadId)
      emit({ type: "session", action: "started", harness: "codex", id: threadId });
    this.#threadId = threadId;
    this.#offered = new Set(report.tools);
    this.#meter ??= new RolloutMeter(codexHome(this.#options.env ?? process.env), threadId);
    return undefined;
  }
}

/** The line of Codex's error text that names the missing thread. */
function missingThreadText(failure: string): string {
  return (
    failure
      .split("\n")
      .find((l) => MISSING_THREAD.test(l))
      ?.trim() ?? failure
  );
}

/** Aborted when either is. */
function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (a.aborted) return a;
  if (b.aborted) return b;
  const controller = new AbortController();
  const abort = (s: AbortSignal) => () => controller.abort(s.reason);
  a.addEventListener("abort", abort(a), { once: true });
  b.addEventListener("abort", abort(b), { once: true });
  return controller.signal;
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Closes the translator's open turn when Cadre ended it, without the translator's own "the stream
 * ended before …" error: the error Cadre emits next says why, and a failure is said once.
 */
function closeTurnQuietly(
  translator: { end(out: AgentEvent[], cut?: string): void },
  out: AgentEvent[],
  reason: string,
): void {
  const from = out.length;
  translator.end(out, reason);
  const kept = out.slice(from).filter((e) => !(e.type === "error" && e.code === TRUNCATED));
  out.splice(from, out.length - from, ...kept);
}
