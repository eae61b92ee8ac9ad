// The Codex harness: a BaseAgent over @openai/codex-sdk. Each product turn is one `codex exec
// --experimental-json` run on the session's thread (the first starts it, later ones resume it), and
// its JSONL events come back through the codex translator. Codex runs the agent loop and starts the
// MCP servers itself, so the company tools reach it as a stdio MCP server (`cadre mcp --agent ID`)
// named in its configuration; the Cadre prompt is appended to Codex's own instructions as
// `developer_instructions` (MC-3: harness preset first, product append after). Codex compacts natively
// (MC-8); the host consumes what the stream says about it, and a latched rollover (MC-9) starts a new
// thread from the handoff instead of resuming the old one.
//
// Why the SDK and not `codex app-server`: the SDK's exec stream is the format our translator and its
// fixtures cover, it is the vendor's supported embedding, and everything this harness needs — resume
// by thread id, per-run config (MCP servers, instructions), abort — it offers. The app-server would
// add in-process interrupts and approvals over JSON-RPC, which a headless `never`-approval company
// does not use; a cancel here stops the exec process, after which the thread stays resumable.
import type { Codex, CodexOptions, Thread, ThreadEvent, ThreadOptions } from "@openai/codex-sdk";
import { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "../../agent/base-agent.js";
import { CODEX_RECONNECT_WATCHDOG_MS } from "../../context/timeout-policy.js";
import { errorMessage, UserInputError } from "../../errors.js";
import { codexTranslator, type CodexTranslator } from "./translate/translator.js";
import type { JsonObject } from "../../translators/json.js";
import {
  type HarnessSessionState,
  type NativeSessionRef,
  type SessionBootstrap,
  type SessionContinuation,
  selfHealReason,
} from "../../session/harness-session.js";
import type { AgentEvent, ContextSnapshot } from "../../types.js";
import { HarnessContext } from "../harness-context.js";
import { type CodexPolicy, DEFAULT_CODEX_POLICY } from "./policy.js";
import { CodexWindowReading } from "./window-reading.js";
import { RunWatchdog } from "./watchdog.js";

/** A stdio MCP server Codex starts for the session. */
export interface CodexMcpServer {
  command: string;
  args: readonly string[];
  /** Names of variables Codex passes on from its environment (values never go on a command line). */
  envVars?: readonly string[];
  /** Tools Codex may use from this server; default every tool of the session's frozen list. */
  enabledTools?: readonly string[];
  /** How long Codex waits for the server to start. Default 30 s (Codex's own default is 10 s; a cold `cadre` start can take seconds). */
  startupTimeoutSec?: number;
}

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
  /**
   * A Codex thread to continue on the first turn (later turns always resume this session's own).
   * A resume Codex cannot start (it ends before `thread.started`, e.g. no rollout for the id) is
   * healed once: a new thread from the handoff digest.
   */
  resume?: string | NativeSessionRef;
  /** Explicit override of the 90% compaction threshold (MC-8), a fraction in (0, 1]; Codex compacts natively. */
  compactThreshold?: number;
  /** Reconnect watchdog: a run silent this long is closed as failed (MC-11 fallback, never a recovery). Default 120 s. */
  watchdogMs?: number;
}

export class CodexAgent extends BaseAgent {
  private readonly codexOptions: CodexOptions;
  private readonly threadOptions: ThreadOptions;
  private readonly resume: string | undefined;
  private codex: Codex | undefined;
  private thread: Thread | undefined;
  /** A rollover closed the resumed thread: the next run starts a new one (MC-9). */
  private rolledOver = false;
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
  private bootstrapPending: SessionBootstrap | undefined;
  private resumed = false;
  private healed: string | undefined;
  private threadRolledOver = false;

  constructor(config: SessionConfig, options: CodexAgentOptions = {}) {
    super(config);
    const policy = options.policy ?? DEFAULT_CODEX_POLICY;
    const codexOptions: CodexOptions = { config: codexConfig(config, options.mcpServers ?? {}) };
    if (options.executablePath !== undefined) codexOptions.codexPathOverride = options.executablePath;
    if (options.env !== undefined) codexOptions.env = definedOnly(options.env);
    const threadOptions: ThreadOptions = {
      model: config.model.id,
      sandboxMode: policy.sandboxMode,
      approvalPolicy: policy.approvalPolicy,
      webSearchMode: policy.webSearch ? "live" : "disabled",
      skipGitRepoCheck: true,
    };
    if (options.cwd !== undefined) threadOptions.workingDirectory = options.cwd;
    this.codexOptions = codexOptions;
    this.threadOptions = threadOptions;
    this.bootstrapPending = options.bootstrap;
    // A handoff left for this session means the old thread is closed for good: never resumed.
    this.resume = options.bootstrap
      ? undefined
      : typeof options.resume === "string"
        ? options.resume
        : options.resume?.id;
    this.context = new HarnessContext({
      harness: "codex",
      model: config.model,
      ...(options.compactThreshold !== undefined ? { thresholdOverride: options.compactThreshold } : {}),
      ...(options.digest ? { digest: options.digest } : {}),
    });
    this.window = new CodexWindowReading({ resumed: this.resume !== undefined });
    if (this.resume !== undefined) {
      this.context.session.resumeAt(options.tokensInWindow ?? 0);
      // MC-15: the thread's totals as last seen, so its next cumulative report is an increment.
      if (options.vendorTotals) this.translator.resumeTotals(options.vendorTotals);
    }
    const watchdogMs = options.watchdogMs ?? CODEX_RECONNECT_WATCHDOG_MS;
    if (!Number.isFinite(watchdogMs) || watchdogMs <= 0)
      throw new UserInputError(`watchdogMs must be a positive number of milliseconds (got ${watchdogMs})`);
    this.watchdogMs = watchdogMs;
  }

  protected override contextSnapshot(): ContextSnapshot | undefined {
    return this.context.snapshot(this.vendorSessionId);
  }

  protected override harnessSessionState(): HarnessSessionState {
    const id = this.vendorSessionId;
    const totals = this.translator.totals();
    return {
      harness: "codex",
      ref: id !== undefined ? { id } : undefined,
      resumed: this.resumed,
      rolledOver: this.threadRolledOver,
      ...(this.healed !== undefined ? { selfHealed: this.healed } : {}),
      ...(this.bootstrapPending ? { pendingBootstrap: this.bootstrapPending } : {}),
      digest: this.context.digest(),
      model: this.config.model.id,
      tokensInWindow: this.context.session.tokensInWindow,
      ...(totals ? { vendorTotals: totals } : {}),
    };
  }

  /** Codex's thread id (known once the first run started); later turns resume it. */
  get vendorSessionId(): string | undefined {
    return this.thread?.id ?? (this.rolledOver ? undefined : this.resume);
  }

  /** The session's one thread, made on first use (the SDK is loaded then: most users of @cadre/core never start Codex). */
  private async sessionThread(): Promise<Thread> {
    if (this.thread) return this.thread;
    if (this.codex === undefined) {
      const { Codex } = await import("@openai/codex-sdk");
      this.codex = new Codex(this.codexOptions);
    }
    const resume = this.rolledOver ? undefined : this.resume;
    this.thread =
      resume !== undefined
        ? this.codex.resumeThread(resume, this.threadOptions)
        : this.codex.startThread(this.threadOptions);
    return this.thread;
  }

  /**
   * MC-9 rollover: the latched thread is closed for good (never resumed again); a new thread starts
   * from the code-built handoff, with this send's prompt after it.
   */
  private rollover(prompt: string, reason: string, emit: Emit): string {
    const fresh = this.context.rollover(prompt, reason);
    this.thread = undefined;
    this.rolledOver = true;
    this.threadRolledOver = true;
    this.translator.newThread();
    this.window.newThread();
    emit(fresh.event);
    return fresh.prompt;
  }

  /** A new thread after a failed resume: the digest's handoff first (MC-9 self-heal, once). */
  private heal(prompt: string, why: string, emit: Emit): string {
    const asked = this.resume ?? "?";
    const reason = selfHealReason("codex", asked, why);
    this.healed = reason;
    this.thread = undefined;
    this.rolledOver = true; // the asked thread is not resumed again
    this.translator.newThread();
    this.window.newThread();
    emit({ type: "session", action: "self-healed", harness: "codex", previousId: asked, reason });
    return this.context.healPrompt(prompt);
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
    const resuming = this.thread === undefined && !this.rolledOver && this.resume !== undefined;
    const first = await this.runOnce(input, emit, signal, resuming);
    if (first.resumeFailed === undefined) return first.outcome;
    // Codex ended before it said which thread it runs: the resume failed. Heal once, never loop.
    return (await this.runOnce(this.heal(prompt, first.resumeFailed, emit), emit, signal, false)).outcome;
  }

  private async runOnce(
    input: string,
    emit: Emit,
    signal: AbortSignal,
    resuming: boolean,
  ): Promise<{ outcome: TurnOutcome; resumeFailed?: string }> {
    const out: AgentEvent[] = [];
    const flush = () => {
      for (let i = 0; i < out.length; i++) this.observe(out[i]!, emit);
      out.length = 0;
    };
    let received = 0;
    let ended: ThreadEvent | undefined; // turn.completed or turn.failed
    let failure: string | undefined;
    const watchdog = new RunWatchdog(this.watchdogMs, signal);
    try {
      // A cancel, or the watchdog, aborts the exec process (the SDK passes the signal to spawn).
      const thread = await this.sessionThread();
      const { events } = await thread.runStreamed(input, { signal: watchdog.signal });
      for await (const event of events) {
        watchdog.reset();
        received++;
        if (resuming && event.type === "thread.started") {
          resuming = false;
          this.resumed = event.thread_id === this.resume;
          emit(
            this.resumed
              ? { type: "session", action: "resumed", harness: "codex", id: event.thread_id }
              : {
                  type: "session",
                  action: "started",
                  harness: "codex",
                  id: event.thread_id,
                  reason: `Codex started thread ${event.thread_id} instead of resuming ${this.resume ?? "?"}`,
                },
          );
        }
        this.translator.record(event as unknown as JsonObject, ++this.line, out);
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
      watchdog.stop();
    }

    if (signal.aborted) {
      if (ended === undefined) this.translator.end(out, "the turn was cancelled");
      flush();
      return { outcome: { status: "cancelled", reason: "cancelled by the operator" } };
    }
    if (watchdog.fired && ended === undefined) {
      // MC-11: the watchdog only closes the turn out; no rollover, replay or auto-continue follows.
      const reason = `no event from Codex for ${Math.round(this.watchdogMs / 1000)} s; the reconnect watchdog closed the turn (report only, MC-11)`;
      this.translator.end(out, reason);
      flush();
      emit({ type: "error", code: "watchdog", message: reason });
      return { outcome: { status: "failed", reason } };
    }
    if (ended?.type === "turn.failed") return { outcome: { status: "failed", reason: ended.error.message } }; // the translator reported it
    if (ended?.type === "turn.completed") {
      if (failure === undefined) return { outcome: { status: "done" } };
      emit({
        type: "error",
        code: "harness_exit",
        message: `Codex failed after its turn completed: ${failure}`,
      });
      return { outcome: { status: "failed", reason: failure } };
    }
    if (resuming && received === 0 && failure !== undefined)
      return { outcome: { status: "failed", reason: failure }, resumeFailed: failure };
    if (received === 0 && failure !== undefined) {
      emit({ type: "error", code: "harness_start_failed", message: `Codex did not start: ${failure}` });
      return { outcome: { status: "failed", reason: failure } };
    }
    // Cut before turn.completed: the translator closes the open turn and says so (never a hang).
    this.translator.end(
      out,
      failure !== undefined ? `Codex stopped (${failure})` : "the Codex process ended",
    );
    flush();
    return {
      outcome: { status: "failed", reason: failure ?? "the Codex stream ended before turn.completed" },
    };
  }
}

/** The per-run `--config` overrides: our prompt after Codex's own instructions, and the MCP servers. */
function codexConfig(
  config: SessionConfig,
  servers: Readonly<Record<string, CodexMcpServer>>,
): NonNullable<CodexOptions["config"]> {
  const mcp: Record<string, NonNullable<CodexOptions["config"]>> = {};
  const toolNames = config.tools.map((t) => t.name);
  for (const [name, server] of Object.entries(servers)) {
    mcp[name] = {
      command: server.command,
      args: [...server.args],
      // The session's tool list is frozen (MC-3): only those tools, whatever else a server offers.
      enabled_tools: [...(server.enabledTools ?? toolNames)],
      // Headless: the company tools must run without a person approving each call.
      default_tools_approval_mode: "approve",
      startup_timeout_sec: server.startupTimeoutSec ?? 30,
    };
    if (server.envVars && server.envVars.length > 0) mcp[name]["env_vars"] = [...server.envVars];
  }
  const out: NonNullable<CodexOptions["config"]> = { developer_instructions: config.systemPrompt };
  if (Object.keys(mcp).length > 0) out["mcp_servers"] = mcp;
  return out;
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
