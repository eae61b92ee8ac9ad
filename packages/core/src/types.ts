// Domain types and the AgentEvent union of the agent core. Dependency-free on purpose (its one
// import is a type from @cadre/model, beneath core): every harness, translator and UI speaks these.
import type { HarnessKind, ModelProvider, Usage } from "@cadre/model";

/** Token usage of one model call (defined in @cadre/model, beneath the store that records it). */
export type { Usage };

/** Normalised stop reason; the vendor's own value is kept beside it in `vendorStopReason`. */
export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "refusal"
  | "pause"
  | "error"
  | "aborted"
  | "other";

/** How a product turn ended (MC-14: exactly one per product turn). */
export type TerminalStatus = "done" | "failed" | "cancelled";

export type ToolResultContent =
  { type: "text"; text: string } | { type: "image"; mimeType: string; data: string };

/**
 * The event model shared by every harness. Plain objects discriminated by `type`.
 * Block events carry `index`, the block's position inside its assistant message.
 */
export type AgentEvent =
  // A model call (one assistant message plus the tool executions it asked for).
  | { type: "turn_start"; turn: number; messageId?: string; model?: string }
  | { type: "turn_end"; turn: number; stopReason: StopReason; vendorStopReason?: string }
  // Streaming content blocks.
  | { type: "text_start"; index: number }
  | { type: "text_delta"; index: number; delta: string }
  | { type: "text_end"; index: number; text: string }
  | { type: "thinking_start"; index: number; redacted?: boolean }
  | { type: "thinking_delta"; index: number; delta: string }
  | { type: "thinking_end"; index: number; thinking: string; signature?: string; redacted?: boolean }
  | { type: "toolcall_start"; index: number; id: string; name: string }
  | { type: "toolcall_delta"; index: number; delta: string }
  | { type: "toolcall_end"; index: number; id: string; name: string; input: unknown }
  // Host side: a tool call handed to execution, and what came back.
  | {
      type: "tool_use";
      id: string;
      name: string;
      input: unknown;
      /** The harness has no such tool and refused the call without running it; its tool_result says what it answered. */
      refused?: true;
    }
  | {
      type: "tool_result";
      toolUseId: string;
      name: string;
      content: ToolResultContent[];
      isError: boolean;
      details?: unknown;
    }
  // Accounting, one per model call (incremental, never cumulative).
  | {
      type: "usage";
      usage: Usage;
      /** The model the endpoint says served the call, when its response named one (MC-6). */
      servedModel?: string;
    }
  // MC-6: the endpoint served another model than the one declared. Once per run and served id; or
  // (with `fingerprint`) the model under the declared id is not the one declared (Ollama's digest,
  // the model list's metadata changed), said when the wake starts.
  | {
      type: "model_drift";
      declared: string;
      served: string;
      policy: "warn" | "refuse";
      fingerprint?: { declared: string; served: string };
    }
  // Context management.
  | { type: "compaction_start"; reason: "threshold" | "overflow" | "manual" }
  | {
      type: "compaction_end";
      ok: boolean;
      summary?: string;
      error?: string;
      tokensBefore?: number;
      tokensAfter?: number;
    }
  // The host's recovery decision after a failed model call (MC-10, MC-11): one wire-only replay of
  // the failed user message, or fail closed (reported, never replayed).
  | { type: "recovery"; action: "replay" | "fail-closed"; reason: string }
  // The native window was closed and a fresh one bootstrapped from a code-built handoff (MC-9, MC-13).
  | {
      type: "rollover";
      reason: string;
      handoffBytes: number;
      tokensBefore?: number;
      tokensAfter?: number;
      /** The native session closed, and the fresh one started from the handoff, when known. */
      fromSession?: string;
      toSession?: string;
    }
  // Which native session this product turn runs in: a fresh one, the agent's session resumed, or a
  // fresh one after a resume failed (missing or damaged, unknown to the harness): healed once from
  // the handoff digest, never retried in a loop.
  | {
      type: "session";
      action: "started" | "resumed" | "self-healed";
      harness: HarnessKind;
      id?: string;
      /** The session a self-heal gave up on. */
      previousId?: string;
      reason?: string;
    }
  // The one compression flow's decision (MC-12) at a terminal error or the next send, when it acts:
  // strip oversized inline images, hand off (the rollover path), or fail closed. `bytes` is the
  // measured request against `byteLimit`; `strippedImages`/`bytesFreed` say what a strip removed.
  | {
      type: "compression";
      trigger: "terminal-error" | "next-send";
      action: "strip-images" | "handoff-rebuild" | "fail-closed";
      reason: string;
      bytes?: number;
      byteLimit?: number;
      strippedImages?: number;
      bytesFreed?: number;
    }
  // The session's context state at the end of a product turn, for `cadre sessions inspect` (display only).
  | { type: "context"; snapshot: ContextSnapshot }
  // What a harness that runs its own loop offers the model, as it reported it at the start of a run
  // (Claude Code: its system/init line; Codex: see HarnessToolsReport), checked against the company's
  // decision. `problem` is set when they differ; the run then fails at once.
  | ({ type: "harness_tools" } & HarnessToolsReport)
  // MC-14: a provider turn ended while work it started was still running (a Codex exec yield). A
  // claim minted on that terminal boundary holds the product turn open; the host opens a continuation
  // turn that waits on the same work, and the claim settles or ends as `lost-handle`.
  | {
      type: "continuation";
      claimId: string;
      action: "opened" | "settled" | "lost-handle";
      reason: string;
      /** The continuation turn's number within the claim (1 for the first). */
      attempt?: number;
    }
  // Failures never throw out of a stream: they become this event.
  | { type: "error"; message: string; code?: string; retryable?: boolean }
  // Vendor events we do not model are carried, not dropped (MC-5).
  | { type: "unknown"; vendor: string; vendorType: string; raw: unknown }
  // The one terminal event of a product turn.
  | { type: "terminal"; status: TerminalStatus; reason?: string };

/**
 * What a session's context controller looked like at the end of a product turn (MC-8..MC-14).
 * Plain data for reports; a restart never re-creates the rollover latch from it (MC-9).
 */
export interface ContextSnapshot {
  harness: HarnessKind;
  model: string;
  contextWindow: number;
  /** Tokens in the native window at the last live reading (a model call's input + cache read + cache write). */
  tokensInWindow: number;
  occupancy: number;
  /** The compaction threshold in force (fraction of the window) and whether the user overrode the default. */
  threshold: number;
  thresholdSource: "default" | "override";
  /** Pi's native compaction reserve, frozen at the last start/resume. */
  reserveTokens?: number;
  /**
   * Who decides compaction at the threshold (MC-8): Pi and Codex compact natively (the host only
   * consumes their events); for Claude Code the host injects /compact (its auto-compact stays on).
   */
  compactionOwner?: Exclude<HarnessKind, "claude-code"> | "host";
  /** The native session the turn ran in (a Pi session id, a Claude Code session id, a Codex thread id). */
  sessionId?: string;
  remote: boolean;
  needsRollover: boolean;
  /** Why the latch is set, when it is. */
  latchReason?: string;
  openClaims: string[];
  compactions: { count: number; succeeded: number };
  lastCompaction?: {
    result: "ok" | "deterministic" | "transient" | "not-a-compaction-failure" | "interrupted";
    reason: string;
    tokensBefore?: number;
    tokensAfter?: number;
  };
  replays: number;
  rollovers: number;
}

/** One MCP server as a harness reported it: its status and, when known, the tools it listed. */
export interface HarnessMcpServer {
  name: string;
  /** The harness's own word (Claude Code: connected, failed, pending, …; Codex: see `source`). */
  status: string;
  tools?: string[];
}

/** The tools a harness offers the model at the start of a run, and where that list comes from. */
export interface HarnessToolsReport {
  harness: HarnessKind;
  /** Every tool the model is offered, by the name the harness gives it (MCP tools as mcp__server__tool). */
  tools: string[];
  mcpServers: HarnessMcpServer[];
  /** The company's decision: the tools the connector's policy allows plus the company tools. */
  expected: string[];
  /** Where `tools` was read, in words (which line or record, and what is inferred from configuration). */
  source: string;
  /** Why the reported list is not the decided one; absent when they match. */
  problem?: string;
}

export type AgentEventType = AgentEvent["type"];

export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

export const ZERO_USAGE: Usage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** USD per million tokens, each counter at its own price. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Explicit model entry of the registry (MC-6). */
export interface ModelInfo {
  id: string;
  provider: ModelProvider;
  contextWindow: number;
  maxOutput: number;
  /** USD per million tokens; null when the price is unknown (a cost is then unknown, never 0). */
  price: ModelPrice | null;
}
