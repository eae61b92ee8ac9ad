// The Claude Code harness: a BaseAgent over @anthropic-ai/claude-agent-sdk's `query()`. Claude Code
// runs the agent loop in its own process; we hand it the Cadre prompt as the append to its preset
// (MC-3), the company tools as an in-process MCP server built from the same ToolDefinitions, and a
// permission policy; its stream-json messages come back through the claude-code translator.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Options, SDKMessage, SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
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
  selfHealReason,
} from "../../session/harness-session.js";
import type { AgentEvent, ContextSnapshot } from "../../types.js";
import { HarnessContext } from "../harness-context.js";
import { COMPACT_COMMAND, isCompactCommand, keepNativeCompaction } from "./compact-command.js";
import { type ClaudeCodePolicy, DEFAULT_CLAUDE_CODE_POLICY } from "./policy.js";

export interface ClaudeCodeAgentOptions extends Omit<SessionContinuation, "resume" | "vendorTotals"> {
  /** Claude Code to start; default the native binary bundled with the SDK. A .js/.mjs path runs with node. */
  executablePath?: string;
  /** The Claude Code process's whole environment (the SDK does not merge it with ours); default ours. Switches that would turn off Claude Code's own compaction are removed (MC-8). */
  env?: Record<string, string | undefined>;
  /** Working directory of the Claude Code process (the agent's working folder). */
  cwd?: string;
  policy?: ClaudeCodePolicy;
  /**
   * A Claude Code session to continue on the first turn (later turns always resume this session's
   * own). It is verified on its init line; a resume Claude Code refuses ("No conversation found")
   * is healed once: a fresh session from the handoff digest.
   */
  resume?: string | NativeSessionRef;
  /** After a cancel, how long Claude Code may take to honour the interrupt before its process is stopped. Default 5 s. */
  interruptGraceMs?: number;
  /** Claude Code's stderr, for diagnostics only: it never drives recovery (MC-11). */
  stderr?: (text: string) => void;
  /** Explicit override of the 90% compaction threshold (MC-8), a fraction in (0, 1]. */
  compactThreshold?: number;
}

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
  /** Claude Code refused the resume (its result line came before any init line): why. */
  resumeFailed?: string;
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
  /** The session this object was told to resume, until its init line proves it (or a heal replaces it). */
  private resumeAsked: string | undefined;
  private bootstrapPending: SessionBootstrap | undefined;
  private resumed = false;
  private rolledOver = false;
  private healed: string | undefined;

  constructor(config: SessionConfig, options: ClaudeCodeAgentOptions = {}) {
    super(config);
    this.options = options;
    this.policy = options.policy ?? DEFAULT_CLAUDE_CODE_POLICY;
    const resume = typeof options.resume === "string" ? options.resume : options.resume?.id;
    this.bootstrapPending = options.bootstrap;
    // A handoff left for this session means the old one is closed for good: never resumed.
    this.sessionRef = options.bootstrap ? undefined : resume;
    this.resumeAsked = this.sessionRef;
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

  protected override contextSnapshot(): ContextSnapshot | undefined {
    return this.context.snapshot(this.sessionRef);
  }

  protected override harnessSessionState(): HarnessSessionState {
    return {
      harness: "claude-code",
      ref: this.sessionRef !== undefined ? { id: this.sessionRef } : undefined,
      resumed: this.resumed,
      rolledOver: this.rolledOver,
      ...(this.healed !== undefined ? { selfHealed: this.healed } : {}),
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
      this.rolledOver = true;
      emit(fresh.event);
      input = fresh.prompt;
    }
    this.context.transcript.prompt(prompt);
    let run = await this.query(input, manual ? "manual" : "turn", emit, signal);
    const asked = this.resumeAsked;
    if (run.resumeFailed !== undefined && asked !== undefined && this.healed === undefined) {
      // One bounded self-heal: a fresh session from the handoff digest. It never loops: this
      // object heals once, and the next wake resumes the session the heal started.
      const reason = selfHealReason("claude-code", asked, run.resumeFailed);
      this.healed = reason;
      this.resumeAsked = undefined;
      this.sessionRef = undefined;
      emit({ type: "session", action: "self-healed", harness: "claude-code", previousId: asked, reason });
      run = await this.query(this.context.healPrompt(prompt), manual ? "manual" : "turn", emit, signal);
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
    };
    const stats: { received: number; resumeFailed?: string } = { received: 0 };
    const outcome = await this.runQuery(prompt, observed, signal, stats);
    return {
      outcome,
      started: stats.received > 0,
      ...(stats.resumeFailed !== undefined ? { resumeFailed: stats.resumeFailed } : {}),
    };
  }

  private async runQuery(
    prompt: string,
    emit: Emit,
    signal: AbortSignal,
    stats: { received: number; resumeFailed?: string },
  ): Promise<TurnOutcome> {
    // The SDK is loaded on first use (it is large; most users of @cadre/core never start Claude Code).
    // A fresh MCP server per query: an MCP server serves one connection; the tool list is the session's, frozen.
    const [{ query }, server] = await Promise.all([
      import("@anthropic-ai/claude-agent-sdk"),
      this.config.tools.length > 0 ? createToolServer(this.config.tools) : undefined,
    ]);
    if (signal.aborted) return { status: "cancelled", reason: "cancelled by the operator" };
    const abort = new AbortController();
    const run = query({ prompt, options: this.queryOptions(abort, server) });
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
    // The session asked for is verified before anything is taken from the stream: Claude Code
    // names the session it runs in its init line; a result line before any init is a refused resume.
    let verifying = this.resumeAsked !== undefined && this.sessionRef === this.resumeAsked;
    try {
      for await (const message of run) {
        stats.received++;
        if (verifying && message.type === "system" && message.subtype === "init") {
          verifying = false;
          this.resumeAsked = undefined;
          const asked = this.sessionRef;
          this.resumed = message.session_id === asked;
          emit(
            this.resumed
              ? { type: "session", action: "resumed", harness: "claude-code", id: message.session_id }
              : {
                  type: "session",
                  action: "started",
                  harness: "claude-code",
                  id: message.session_id,
                  reason: `Claude Code started session ${message.session_id} instead of resuming ${asked ?? "?"}`,
                },
          );
        } else if (verifying && message.type === "result") {
          stats.resumeFailed = resultText(message);
          continue; // the refusal is not this turn's outcome: the caller heals once
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

    if (signal.aborted) {
      if (!result) this.translator.end(out, "the turn was cancelled");
      flush();
      return { status: "cancelled", reason: "cancelled by the operator" };
    }
    if (stats.resumeFailed !== undefined)
      return { status: "failed", reason: `Claude Code could not resume: ${stats.resumeFailed}` };
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
      // MC-3: Claude Code's preset first, the assembled Cadre prompt appended. Dynamic sections (cwd,
      // date, git status) leave the system prompt for the first user message, and the snapshot keeps
      // the prompt recorded at the first turn for every resumed turn.
      systemPrompt: {
        type: "preset",
        preset: "claude_code",
        append: systemPrompt,
        excludeDynamicSections: true,
        snapshot: true,
      },
      permissionMode: this.policy.permissionMode,
      allowedTools: [...tools.map((t) => mcpToolName(t.name)), ...(this.policy.allowedTools ?? [])],
      // Isolation: no user/project settings, hooks or MCP servers from disk can add tools mid-company.
      settingSources: [],
      strictMcpConfig: true,
    };
    if (server !== undefined)
      options.mcpServers = { [TOOL_SERVER_NAME]: { type: "sdk", name: TOOL_SERVER_NAME, instance: server } };
    if (this.policy.permissionMode === "bypassPermissions") options.allowDangerouslySkipPermissions = true;
    if (this.sessionRef !== undefined) options.resume = this.sessionRef;
    if (o.executablePath !== undefined) options.pathToClaudeCodeExecutable = o.executablePath;
    options.env = keepNativeCompaction(o.env ?? process.env);
    if (o.cwd !== undefined) options.cwd = o.cwd;
    if (o.stderr !== undefined) options.stderr = o.stderr;
    return options;
  }

  private noteSession(message: SDKMessage): void {
    const id = (message as { session_id?: unknown }).session_id;
    if (typeof id !== "string" || id.length === 0) return;
    // The init line names the session this process runs; it wins over whatever we resumed.
    if (message.type === "system" && message.subtype === "init") this.sessionRef = id;
    else this.sessionRef ??= id;
  }
}

function resultText(result: SDKResultMessage): string {
  if (result.subtype === "success") return result.result || "Claude Code reported an error";
  return result.errors.join("; ") || result.subtype;
}
