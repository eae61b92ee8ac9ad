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
import { claudeCodeTranslator } from "../../translators/claude-code-jsonl/translator.js";
import type { RecordTranslator } from "../../translators/drive.js";
import type { JsonObject } from "../../translators/json.js";
import type { AgentEvent } from "../../types.js";
import { type ClaudeCodePolicy, DEFAULT_CLAUDE_CODE_POLICY } from "./policy.js";

export interface ClaudeCodeAgentOptions {
  /** Claude Code to start; default the native binary bundled with the SDK. A .js/.mjs path runs with node. */
  executablePath?: string;
  /** The Claude Code process's whole environment (the SDK does not merge it with ours); default ours. */
  env?: Record<string, string | undefined>;
  /** Working directory of the Claude Code process (the agent's working folder). */
  cwd?: string;
  policy?: ClaudeCodePolicy;
  /** A Claude Code session to continue on the first turn (later turns always resume this session's own). */
  resume?: string;
  /** After a cancel, how long Claude Code may take to honour the interrupt before its process is stopped. Default 5 s. */
  interruptGraceMs?: number;
  /** Claude Code's stderr, for diagnostics only: it never drives recovery (MC-11). */
  stderr?: (text: string) => void;
}

const DEFAULT_INTERRUPT_GRACE_MS = 5_000;

export class ClaudeCodeAgent extends BaseAgent {
  private readonly options: ClaudeCodeAgentOptions;
  private readonly policy: ClaudeCodePolicy;
  /** One translator for the session: turn numbers run on across product turns, as Pi's do. */
  private readonly translator: RecordTranslator = claudeCodeTranslator();
  private line = 0;
  private sessionRef: string | undefined;

  constructor(config: SessionConfig, options: ClaudeCodeAgentOptions = {}) {
    super(config);
    this.options = options;
    this.policy = options.policy ?? DEFAULT_CLAUDE_CODE_POLICY;
    this.sessionRef = options.resume;
  }

  /** Claude Code's own session id (from its init message); later turns resume it. */
  get vendorSessionId(): string | undefined {
    return this.sessionRef;
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    // The SDK is loaded on first use (it is large; most users of @cadre/core never start Claude Code).
    // A fresh MCP server per query: an MCP server serves one connection; the tool list is the session's, frozen.
    const [{ query }, server] = await Promise.all([import("@anthropic-ai/claude-agent-sdk"), this.config.tools.length > 0 ? createToolServer(this.config.tools) : undefined]);
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
    let received = 0;
    let result: SDKResultMessage | undefined;
    let failure: string | undefined;
    try {
      for await (const message of run) {
        received++;
        this.translator.record(message as unknown as JsonObject, ++this.line, out);
        flush();
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
    if (result) {
      if (result.is_error) return { status: "failed", reason: resultText(result) }; // the translator reported it
      if (failure === undefined) return { status: "done" };
      emit({ type: "error", code: "harness_exit", message: `Claude Code failed after its result line: ${failure}` });
      return { status: "failed", reason: failure };
    }
    if (received === 0 && failure !== undefined) {
      emit({ type: "error", code: "harness_start_failed", message: `Claude Code did not start: ${failure}` });
      return { status: "failed", reason: failure };
    }
    // Cut before its result line: the translator closes what is open and says so (never a hang).
    this.translator.end(out, failure !== undefined ? `Claude Code stopped (${failure})` : "the Claude Code process ended");
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
      systemPrompt: { type: "preset", preset: "claude_code", append: systemPrompt, excludeDynamicSections: true, snapshot: true },
      permissionMode: this.policy.permissionMode,
      allowedTools: [...tools.map((t) => mcpToolName(t.name)), ...(this.policy.allowedTools ?? [])],
      // Isolation: no user/project settings, hooks or MCP servers from disk can add tools mid-company.
      settingSources: [],
      strictMcpConfig: true,
    };
    if (server !== undefined) options.mcpServers = { [TOOL_SERVER_NAME]: { type: "sdk", name: TOOL_SERVER_NAME, instance: server } };
    if (this.policy.permissionMode === "bypassPermissions") options.allowDangerouslySkipPermissions = true;
    if (this.sessionRef !== undefined) options.resume = this.sessionRef;
    if (o.executablePath !== undefined) options.pathToClaudeCodeExecutable = o.executablePath;
    if (o.env !== undefined) options.env = o.env;
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
