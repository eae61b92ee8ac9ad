// The Claude Code harness: a BaseAgent over @anthropic-ai/claude-agent-sdk's `query()`. Claude Code
// runs the agent loop in its own process; we hand it the Cadre prompt as its whole system prompt
// (MC-3), the company tools as an in-process MCP server built from the same ToolDefinitions, and a
// permission policy; its stream-json messages come back through the claude-code translator.
//
// What the company decided, it gets: `tools` names the only built-ins Claude Code offers
// (the policy's, none by default), the company tools come from the in-process MCP server, loaded up
// front (with `tools` set, Claude Code defers nothing behind ToolSearch), strict MCP config and no
// settings from disk. Each run's system/init line says what Claude Code actually offers; it becomes
// the run's `harness_tools` event, and a list that differs from the decision fails the run at once.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Options, SDKMessage, SDKResultMessage, SDKSystemMessage } from "@anthropic-ai/claude-agent-sdk";
import { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "../../agent/base-agent.js";
import { errorMessage } from "../../errors.js";
import { mcpToolName, TOOL_SERVER_NAME } from "../../mcp/names.js";
import { createToolServer } from "../../mcp/tool-server.js";
import { claudeCodeTranslator } from "./translate/translator.js";
import type { RecordTranslator } from "../../translators/drive.js";
import type { JsonObject } from "../../translators/json.js";
import type { CompactionPath } from "../../context/index.js";
import {
  type HarnessSessionState,
  type NativeSessionRef,
  type SessionBootstrap,
  type SessionContinuation,
} from "../../session/harness-session.js";
import type { AgentEvent, ContextSnapshot, HarnessToolsReport } from "../../types.js";
import type { PromptSegment } from "../../prompt/assemble.js";
import { type ModelCallPrefix, PromptPrefixChangedError } from "../../prompt/prefix-guard.js";
import { HarnessContext } from "../harness-context.js";
import { HandedPrefixGuard } from "../handed-prefix.js";
import { ReportedTools, toolListProblem } from "../tool-report.js";
import { COMPACT_COMMAND, isCompactCommand } from "./compact-command.js";
import { claudeCodeEnvironment, MAX_RETRIES_ENV } from "./environment.js";
import { workspaceHook } from "./workspace-hook.js";
import { builtinToolNames, type ClaudeCodePolicy, DEFAULT_CLAUDE_CODE_POLICY } from "./policy.js";

export interface ClaudeCodeAgentOptions extends Omit<SessionContinuation, "resume"> {
  /** Claude Code to start; default the native binary bundled with the SDK. A .js/.mjs path runs with node. */
  executablePath?: string;
  /**
   * The Claude Code process's whole environment (the SDK does not merge it with ours); default ours.
   * Switches that would turn off Claude Code's own compaction are removed (MC-8), non-essential
   * traffic is off unless the variable is set, and a loopback ANTHROPIC_BASE_URL with no key gets a
   * placeholder key (environment.ts).
   */
  env?: Record<string, string | undefined>;
  /** Working directory of the Claude Code process (the agent's working folder). */
  cwd?: string;
  policy?: ClaudeCodePolicy;
  /**
   * A Claude Code session to continue on the first turn (later turns always resume this session's
   * own). The init line must name that very session; a session Claude Code cannot find ("No
   * conversation found") gets one self-heal: a fresh session from the handoff (the digest of
   * earlier wakes and this session), recorded as a `session` self-healed and a rollover event.
   */
  resume?: string | NativeSessionRef;
  /**
   * Claude Code's retries of one failed model request (CLAUDE_CODE_MAX_RETRIES), default 2 unless the
   * environment sets it: a failing provider ends the wake within seconds, each retry said.
   */
  maxRetries?: number;
  /** After a cancel, how long Claude Code may take to honour the interrupt before its process is stopped. Default 5 s. */
  interruptGraceMs?: number;
  /** Claude Code's stderr, for diagnostics only: it never drives recovery (MC-11). */
  stderr?: (text: string) => void;
  /** Explicit override of the 90% compaction threshold (MC-8), a fraction in (0, 1]. */
  compactThreshold?: number;
  /** The assembled prompt's segments: every turn's hand-over is checked against them (MC-3). */
  segments?: readonly PromptSegment[];
  /** Called once per turn handed to Claude Code, after its stable prefix passed the check. */
  onTurnPrefix?: (prefix: ModelCallPrefix) => void;
}

/** How the session's requested resume went, for the caller's session record. */
export type ResumeOutcome = "none" | "resumed" | "healed";

/** Claude Code's answer to `--resume ID` for a session it does not have (2.1.332). */
const MISSING_SESSION = /No conversation found/i;

const DEFAULT_INTERRUPT_GRACE_MS = 5_000;

/**
 * What one query() is for: a product turn's prompt, the /compact the host injects at the threshold
 * (a silent compaction: its failures may latch), or a user's own /compact (manual: never latches).
 */
type QueryKind = "turn" | "inject" | "manual";

interface QueryRun {
  outcome: TurnOutcome;
  /** Claude Code sent at least one message: the process started. */
  started: boolean;
  /** The session to resume does not exist (its error text); nothing of the run was translated. */
  resumeMissing?: string;
}

export class ClaudeCodeAgent extends BaseAgent {
  private readonly options: ClaudeCodeAgentOptions;
  private readonly policy: ClaudeCodePolicy;
  /** One translator for the session: turn numbers run on across product turns, as Pi's do. */
  private readonly translator: RecordTranslator = claudeCodeTranslator();
  private line = 0;
  private sessionRef: string | undefined;
  /** The session's context policy (MC-8, MC-9): occupancy, threshold, latch, digest, handoff items. */
  private readonly context: HarnessContext;
  /** The controller said "inject /compact" after the last turn: it goes in before the next send. */
  private compactPending = false;
  private injecting = false;
  /** A handoff left for this session (a window closed between wakes): the first send starts from it. */
  private bootstrapPending: SessionBootstrap | undefined;
  private rolledOver = false;
  /** The stable prefix of every turn handed to Claude Code (MC-3). */
  readonly #prefix: HandedPrefixGuard;
  readonly #reported = new ReportedTools();
  /** The tools Claude Code said it offers (its init line): a call to any other is refused by it. */
  #offered: ReadonlySet<string> | undefined;
  /** The session id asked for, until an init line confirmed it. */
  #resumeRequested: string | undefined;
  #resumeOutcome: ResumeOutcome = "none";
  /** The one self-heal of a failed resume has been used. */
  #healed = false;
  /** Why the resume failed and was healed, for the session record. */
  #healReason: string | undefined;

  constructor(config: SessionConfig, options: ClaudeCodeAgentOptions = {}) {
    super(config);
    this.options = options;
    this.policy = options.policy ?? DEFAULT_CLAUDE_CODE_POLICY;
    const resume = typeof options.resume === "string" ? options.resume : options.resume?.id;
    this.bootstrapPending = options.bootstrap;
    // A handoff left for this session means the old one is closed for good: never resumed.
    this.sessionRef = options.bootstrap ? undefined : resume;
    this.#resumeRequested = this.sessionRef;
    this.#prefix = new HandedPrefixGuard(options.segments);
    this.context = new HarnessContext({
      harness: "claude-code",
      model: config.model,
      ...(options.compactThreshold !== undefined ? { thresholdOverride: options.compactThreshold } : {}),
      ...(options.digest ? { digest: options.digest } : {}),
    });
    if (this.sessionRef !== undefined) this.context.session.resumeAt(options.tokensInWindow ?? 0);
  }

  /** Claude Code's own session id (from its init message); later turns resume it. */
  get vendorSessionId(): string | undefined {
    return this.sessionRef;
  }

  /** Whether the requested session was resumed (its id confirmed by Claude Code) or healed by a fresh one. */
  get resumeOutcome(): ResumeOutcome {
    return this.#resumeOutcome;
  }

  /** The tools the session offers, by the names Claude Code gives them: the company's decision. */
  get decidedTools(): string[] {
    return [...builtinToolNames(this.policy), ...this.config.tools.map((t) => mcpToolName(t.name))];
  }

  protected override contextSnapshot(): ContextSnapshot | undefined {
    return this.context.snapshot(this.sessionRef);
  }

  protected override harnessSessionState(): HarnessSessionState {
    return {
      harness: "claude-code",
      ref: this.sessionRef !== undefined ? { id: this.sessionRef } : undefined,
      resumed: this.#resumeOutcome === "resumed",
      rolledOver: this.rolledOver,
      ...(this.#healReason !== undefined ? { selfHealed: this.#healReason } : {}),
      ...(this.bootstrapPending ? { pendingBootstrap: this.bootstrapPending } : {}),
      digest: this.context.digest(),
      model: this.config.model.id,
      tokensInWindow: this.context.session.tokensInWindow,
    };
  }

  /** Stop during a silent compaction only clears its "fired" flag; nothing re-injects (MC-9). */
  protected override onCancel(): void {
    if (this.injecting || this.context.compactionOpen)
      this.context.session.controller.interruptSilentCompaction();
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    const manual = isCompactCommand(prompt);
    const preparation = this.context.prepareSend();
    let rollover = preparation.action === "rollover-then-send" ? preparation.reason : undefined;
    if (
      rollover === undefined &&
      !manual &&
      (preparation.action === "retry-compact" || this.compactPending)
    ) {
      // MC-8: the host's /compact goes in as the next user input of the same session, before the send.
      const stop = await this.injectCompact(emit, signal);
      if (stop) return stop;
      // A deterministic failure of that compact latched: this send already goes to a fresh window.
      if (this.context.session.needsRollover)
        rollover = `send: needsRollover latched (${this.context.session.latchReason ?? "compaction failed"})`;
    }
    this.compactPending = false;
    let input = prompt;
    const boot = this.bootstrapPending;
    if (boot && rollover === undefined) {
      // The window was closed before this session existed: the fresh one starts from its handoff.
      this.bootstrapPending = undefined;
      const fresh = this.context.bootstrap(prompt, boot);
      this.rolledOver = true;
      emit(fresh.event);
      input = fresh.prompt;
    } else if (rollover !== undefined) {
      // MC-9: the latched session is closed for good (never resumed); a fresh one starts from the handoff.
      const fresh = this.context.rollover(prompt, rollover);
      this.bootstrapPending = undefined;
      this.sessionRef = undefined;
      this.#resumeRequested = undefined;
      this.rolledOver = true;
      emit(fresh.event);
      input = fresh.prompt;
    }
    this.context.transcript.prompt(prompt);
    let run = await this.query(input, manual ? "manual" : "turn", emit, signal);
    if (run.resumeMissing !== undefined && !this.#healed && !signal.aborted) {
      // One bounded self-heal of a resume that cannot work: a fresh session from the handoff, recorded.
      this.#healed = true;
      const previousId = this.#resumeRequested ?? this.sessionRef ?? "?";
      const reason = `resume of Claude Code session ${previousId} failed (${run.resumeMissing}); a fresh session starts from the handoff (one self-heal, never retried)`;
      const fresh = this.context.heal(prompt, reason, previousId);
      this.sessionRef = undefined;
      this.#resumeRequested = undefined;
      this.#resumeOutcome = "healed";
      this.#healReason = reason;
      this.rolledOver = true;
      emit({ type: "session", action: "self-healed", harness: "claude-code", previousId, reason });
      emit(fresh.event);
      run = await this.query(fresh.prompt, manual ? "manual" : "turn", emit, signal);
    }
    const { outcome } = run;
    // After the turn: at the threshold with the window not full, /compact is due before the next send.
    if (outcome.status !== "cancelled")
      this.compactPending = this.context.session.controller.shouldInjectCompact();
    return outcome;
  }

  /** Runs the injected /compact; a turn outcome only when the product turn must end here. */
  private async injectCompact(emit: Emit, signal: AbortSignal): Promise<TurnOutcome | undefined> {
    this.compactPending = false;
    this.injecting = true;
    const endedBefore = this.context.session.controller.digest().count;
    let run: QueryRun;
    try {
      run = await this.query(COMPACT_COMMAND, "inject", emit, signal);
    } finally {
      this.injecting = false;
    }
    // The compaction the controller fired ends exactly once, even when Claude Code said nothing about it.
    if (this.context.compactionOpen || this.context.session.controller.digest().count === endedBefore) {
      const why = signal.aborted
        ? "stopped before the compaction ended"
        : `no compaction result from Claude Code (${run.outcome.reason ?? run.outcome.status})`;
      const events: AgentEvent[] = this.context.compactionOpen
        ? []
        : [{ type: "compaction_start", reason: "threshold" }];
      events.push({ type: "compaction_end", ok: false, error: why });
      for (const event of events) {
        this.context.observe(event, "silent");
        emit(event);
      }
    }
    if (signal.aborted) return { status: "cancelled", reason: "cancelled by the operator" };
    if (!run.started) return run.outcome; // Claude Code cannot start: the prompt would fail the same way
    return undefined;
  }

  /** One query() whose events feed the context policy before they reach the stream. */
  private async query(prompt: string, kind: QueryKind, emit: Emit, signal: AbortSignal): Promise<QueryRun> {
    const path: CompactionPath = kind === "manual" ? "manual" : "silent";
    const observed: Emit = (event) => {
      // Claude Code reports any /compact as trigger "manual"; the host's own is the threshold's.
      if (event.type === "compaction_start" && kind !== "turn")
        event = { type: "compaction_start", reason: kind === "inject" ? "threshold" : "manual" };
      // MC-8 occupancy: what each model call read (input + cache read + cache write) of the window.
      if (event.type === "usage") this.context.session.observeUsage(event.usage);
      this.context.observe(event, path);
      emit(event);
      // A call to a tool Claude Code was not given (its init line's list) is refused by Claude Code
      // itself, never run: a refused tool_use, so the run shows and counts it.
      if (event.type === "toolcall_end" && this.#offered !== undefined && !this.#offered.has(event.name))
        emit({ type: "tool_use", id: event.id, name: event.name, input: event.input, refused: true });
    };
    const stats: QueryStats = { received: 0 };
    const outcome = await this.runQuery(prompt, observed, signal, stats);
    const run: QueryRun = { outcome, started: stats.received > 0 };
    if (stats.resumeMissing !== undefined) run.resumeMissing = stats.resumeMissing;
    return run;
  }

  private async runQuery(
    prompt: string,
    emit: Emit,
    signal: AbortSignal,
    stats: QueryStats,
  ): Promise<TurnOutcome> {
    // The SDK is loaded on first use (it is large; most users of @cadre/core never start Claude Code).
    // A fresh MCP server per query: an MCP server serves one connection; the tool list is the session's, frozen.
    const [{ query }, server] = await Promise.all([
      import("@anthropic-ai/claude-agent-sdk"),
      this.config.tools.length > 0 ? createToolServer(this.config.tools) : undefined,
    ]);
    if (signal.aborted) return { status: "cancelled", reason: "cancelled by the operator" };
    const abort = new AbortController();
    const options = this.queryOptions(abort, server);
    // MC-3: what this turn hands Claude Code must be the session's first hand-over, byte for byte.
    try {
      const prefix = this.#prefix.check(this.config.systemPrompt, this.config.tools, registrationOf(options));
      this.options.onTurnPrefix?.(prefix);
    } catch (error) {
      if (!(error instanceof PromptPrefixChangedError)) throw error;
      emit({ type: "error", code: error.code, message: error.message });
      return { status: "failed", reason: error.message };
    }
    const run = query({ prompt, options });
    let grace: NodeJS.Timeout | undefined;
    const onCancel = () => {
      // Best effort first: Claude Code ends the turn itself (with its result line). Stopping the
      // process is the fallback when it does not within the grace period, so a cancel never hangs.
      run.interrupt().catch(() => abort.abort());
      grace = setTimeout(() => abort.abort(), this.options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS);
      grace.unref();
    };
    signal.addEventListener("abort", onCancel, { once: true });

    const out: AgentEvent[] = [];
    const flush = () => {
      for (let i = 0; i < out.length; i++) emit(out[i]!);
      out.length = 0;
    };
    let result: SDKResultMessage | undefined;
    let failure: string | undefined;
    let refused: string | undefined;
    let sawInit = false;
    try {
      for await (const message of run) {
        stats.received++;
        if (message.type === "system" && message.subtype === "init") {
          sawInit = true;
          refused = this.checkInit(message, emit);
          if (refused !== undefined) {
            // Fail at once, before the model acts with tools the company did not decide.
            abort.abort();
            break;
          }
        } else if (!sawInit && message.type === "result" && this.missingSession(message, stats)) {
          continue; // the failed resume is healed by the caller; this run said nothing else
        }
        this.translator.record(message as unknown as JsonObject, ++this.line, out);
        flush();
        // Backpressure: a consumer that fell behind pauses the reading of the harness's stream.
        const room = this.roomForEvents();
        if (room) await room;
        this.noteSession(message);
        if (message.type === "result") result = message;
      }
    } catch (error) {
      // The SDK throws when the process fails or exits non-zero, also right after an error result.
      failure = errorMessage(error);
    } finally {
      signal.removeEventListener("abort", onCancel);
      clearTimeout(grace);
    }

    if (refused !== undefined) return { status: "failed", reason: refused };
    if (stats.resumeMissing !== undefined && result === undefined)
      return { status: "failed", reason: stats.resumeMissing };

    if (signal.aborted) {
      if (!result) this.translator.end(out, "the turn was cancelled");
      flush();
      return { status: "cancelled", reason: "cancelled by the operator" };
    }
    if (result) {
      if (result.is_error) return { status: "failed", reason: resultText(result) }; // the translator reported it
      if (failure === undefined) return { status: "done" };
      emit({
        type: "error",
        code: "harness_exit",
        message: `Claude Code failed after its result line: ${failure}`,
      });
      return { status: "failed", reason: failure };
    }
    if (stats.received === 0 && failure !== undefined) {
      emit({ type: "error", code: "harness_start_failed", message: `Claude Code did not start: ${failure}` });
      return { status: "failed", reason: failure };
    }
    // Cut before its result line: the translator closes what is open and says so (never a hang).
    this.translator.end(
      out,
      failure !== undefined ? `Claude Code stopped (${failure})` : "the Claude Code process ended",
    );
    flush();
    return { status: "failed", reason: failure ?? "the Claude Code stream ended before its result line" };
  }

  private queryOptions(abort: AbortController, server: McpServer | undefined): Options {
    const { tools, model, systemPrompt } = this.config;
    const o = this.options;
    const options: Options = {
      abortController: abort,
      model: model.id,
      includePartialMessages: true,
      // MC-3: the system part is Cadre's prompt, not Claude Code's coding preset (which
      // describes file, shell and search tools the agent is not offered, and costs every call ~27 kB).
      // The snapshot keeps the prompt recorded at the first turn for every resumed turn.
      systemPrompt: { type: "custom", prompt: systemPrompt, snapshot: true },
      permissionMode: this.policy.permissionMode,
      // The only built-ins Claude Code offers (bare names; none by default). With `tools` set the
      // MCP tools are loaded up front, never deferred behind ToolSearch.
      tools: builtinToolNames(this.policy),
      allowedTools: [...tools.map((t) => mcpToolName(t.name)), ...(this.policy.allowedTools ?? [])],
      // Isolation: no user/project settings, hooks or MCP servers from disk can add tools mid-company.
      settingSources: [],
      strictMcpConfig: true,
    };
    // A member's file tools: a path outside its workspace is denied before the tool runs.
    if (this.policy.workspace !== undefined)
      options.hooks = { PreToolUse: [workspaceHook(this.policy.workspace)] };
    // The shell only inside Claude Code's sandbox: no sandbox here, no session.
    if (this.policy.shell)
      options.sandbox = {
        enabled: true,
        failIfUnavailable: true,
        autoAllowBashIfSandboxed: true,
        allowUnsandboxedCommands: false,
      };
    if (server !== undefined)
      options.mcpServers = { [TOOL_SERVER_NAME]: { type: "sdk", name: TOOL_SERVER_NAME, instance: server } };
    if (this.policy.permissionMode === "bypassPermissions") options.allowDangerouslySkipPermissions = true;
    if (this.sessionRef !== undefined) options.resume = this.sessionRef;
    if (o.executablePath !== undefined) options.pathToClaudeCodeExecutable = o.executablePath;
    options.env = claudeCodeEnvironment(o.env ?? process.env);
    if (o.maxRetries !== undefined) options.env[MAX_RETRIES_ENV] = String(o.maxRetries);
    if (o.cwd !== undefined) options.cwd = o.cwd;
    if (o.stderr !== undefined) options.stderr = o.stderr;
    return options;
  }

  /**
   * The init line: what Claude Code offers and whether it resumed what was asked. Emits the run's
   * `harness_tools` event; returns why the run must stop, if it must.
   */
  private checkInit(message: SDKSystemMessage, emit: Emit): string | undefined {
    const expected = this.decidedTools;
    const report: HarnessToolsReport = {
      harness: "claude-code",
      tools: [...message.tools],
      mcpServers: message.mcp_servers.map((s) => ({ name: s.name, status: s.status })),
      expected,
      source: "Claude Code's system/init line (tools, mcp_servers)",
    };
    this.#offered = new Set(report.tools);
    let problem = toolListProblem("Claude Code", expected, report.tools);
    const server = report.mcpServers.find((s) => s.name === TOOL_SERVER_NAME);
    if (problem === undefined && this.config.tools.length > 0 && server?.status !== "connected")
      problem = `Claude Code's MCP server "${TOOL_SERVER_NAME}" (the company tools) is ${server?.status ?? "missing"}, not connected`;
    problem = this.#reported.check(report, problem);
    if (problem !== undefined) report.problem = problem;
    emit({ type: "harness_tools", ...report });
    if (problem !== undefined) {
      emit({ type: "error", code: "harness_tools_mismatch", message: problem });
      return problem;
    }
    const requested = this.#resumeRequested;
    if (requested !== undefined) {
      if (message.session_id !== requested) {
        const why = `asked Claude Code to resume session ${requested}, but it started session ${message.session_id}: the conversation would not be the one this agent had`;
        emit({ type: "error", code: "resume_mismatch", message: why });
        return why;
      }
      this.#resumeRequested = undefined;
      this.#resumeOutcome = "resumed";
      emit({ type: "session", action: "resumed", harness: "claude-code", id: message.session_id });
    }
    return undefined;
  }

  /** A result line saying the session to resume does not exist (before any init): the caller heals it. */
  private missingSession(message: SDKResultMessage, stats: QueryStats): boolean {
    if (this.#resumeRequested === undefined || this.#healed || !message.is_error) return false;
    const text = resultText(message);
    if (!MISSING_SESSION.test(text)) return false;
    stats.resumeMissing = text;
    return true;
  }

  private noteSession(message: SDKMessage): void {
    const id = (message as { session_id?: unknown }).session_id;
    if (typeof id !== "string" || id.length === 0) return;
    // The init line names the session this process runs; it wins over whatever we resumed.
    if (message.type === "system" && message.subtype === "init") this.sessionRef = id;
    else this.sessionRef ??= id;
  }
}

interface QueryStats {
  received: number;
  resumeMissing?: string;
}

/** The parts of a query's options that decide what Claude Code offers: compared turn by turn (MC-3). */
function registrationOf(options: Options): Record<string, unknown> {
  return {
    mcpServers: Object.keys(options.mcpServers ?? {}),
    tools: options.tools ?? null,
    allowedTools: options.allowedTools ?? [],
    permissionMode: options.permissionMode ?? null,
    workspaceHook: options.hooks?.PreToolUse?.length ?? 0,
    sandbox: options.sandbox?.enabled ?? false,
    strictMcpConfig: options.strictMcpConfig ?? false,
    settingSources: options.settingSources ?? null,
  };
}

function resultText(result: SDKResultMessage): string {
  if (result.subtype === "success") return result.result || "Claude Code reported an error";
  return result.errors.join("; ") || result.subtype;
}
