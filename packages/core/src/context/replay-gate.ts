// MC-10 replay safety: only an explicit context-overflow error, in a turn with no assistant output
// and no tool side effects, allows ONE wire-only replay of the failed user message. Everything
// else fails closed: report, never replay.

import type { AgentEvent } from "../types.js";
import type { ErrorSource } from "./harness-kind.js";

export interface TurnErrorDescription {
  status?: number;
  code?: string;
  message?: string;
  source: ErrorSource;
}

export interface TurnEvidence {
  /** Any text, thinking or tool call the assistant produced in the failed turn. */
  assistantOutput: boolean | "unknown";
  /** Tool executions count as side effects: the host cannot prove a tool had none. */
  toolSideEffects: "none" | "some" | "unknown";
}

export interface ReplayGateInput {
  error: TurnErrorDescription;
  evidence: TurnEvidence;
  /** Replays already made for this user message. */
  replaysDone: number;
  /** The turn is being rolled over after a deterministic compaction failure (MC-9). */
  afterCompactionRollover?: boolean;
}

export type ReplayDecision =
  { replay: "wire-only"; reason: string } | { replay: "none"; failClosed: true; reason: string };

const OVERFLOW_CODES: ReadonlySet<string> = new Set([
  "context_length_exceeded",
  "context_window_exceeded",
  "ContextWindowExceeded",
  "context_overflow",
  "prompt_too_long",
]);
// The vendors' own overflow wording (Anthropic "prompt is too long: N tokens > M maximum",
// OpenAI "maximum context length is N tokens").
const OVERFLOW_MESSAGE =
  /^prompt is too long\b|maximum context length is|context[_ ](?:length|window)[_ ]exceeded/i;

/** Explicit overflow only: a protocol error whose code or vendor wording says so. */
export function isExplicitContextOverflow(error: TurnErrorDescription): boolean {
  if (error.source !== "protocol") return false; // MC-11: stderr never drives recovery
  if (error.code !== undefined && OVERFLOW_CODES.has(error.code)) return true;
  return OVERFLOW_MESSAGE.test(error.message ?? "");
}

/** Evidence read from the failed turn's events. */
export function evidenceFromEvents(events: readonly AgentEvent[]): TurnEvidence {
  let assistantOutput = false;
  let toolSideEffects: TurnEvidence["toolSideEffects"] = "none";
  for (const event of events) {
    switch (event.type) {
      case "text_start":
      case "text_delta":
      case "thinking_start":
      case "thinking_delta":
      case "toolcall_start":
        assistantOutput = true;
        break;
      case "tool_use":
      case "tool_result":
        assistantOutput = true;
        toolSideEffects = "some";
        break;
      case "unknown":
        // An unmodelled vendor event may be output or a side effect: we cannot tell (fail closed).
        if (toolSideEffects === "none") toolSideEffects = "unknown";
        break;
      default:
        break;
    }
  }
  return { assistantOutput, toolSideEffects };
}

function failClosed(reason: string): ReplayDecision {
  return { replay: "none", failClosed: true, reason };
}

export function decideReplay(input: ReplayGateInput): ReplayDecision {
  const { evidence } = input;
  if (input.afterCompactionRollover && evidence.toolSideEffects !== "none") {
    return failClosed("rollover after a compaction failure never replays a message with side effects");
  }
  if (!isExplicitContextOverflow(input.error)) return failClosed("not an explicit context-overflow error");
  if (evidence.toolSideEffects === "some") return failClosed("the turn had tool side effects");
  if (evidence.toolSideEffects === "unknown") return failClosed("tool side effects uncertain");
  if (evidence.assistantOutput !== false)
    return failClosed("the turn produced assistant output (or it is uncertain)");
  if (input.replaysDone >= 1) return failClosed("the one replay was already used");
  return { replay: "wire-only", reason: "explicit context overflow before any output or side effect" };
}
