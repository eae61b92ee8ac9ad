// Pi session events → AgentEvent (MC-5). A pure translator with a little per-session state (the
// turn counter, the open compaction). It takes what an AgentSession of the Pi coding agent's SDK
// delivers to `subscribe`: pi-agent-core's loop events, passed through unchanged, plus the
// session's own — compaction_start/compaction_end (threshold, overflow, manual) and
// auto_retry_start/auto_retry_end. It passes references through (no deep copies on the hot path,
// MC-4) and carries event types it does not model as `unknown` instead of dropping them.
import type { AgentEvent as PiLoopEvent } from "@mariozechner/pi-agent-core";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import type { AgentSessionEvent } from "@mariozechner/pi-coding-agent";
import type { AgentEvent, StopReason, ToolResultContent } from "../../types.js";

/** Everything a Pi session's subscriber receives (a bare pi-agent-core loop delivers a subset). */
export type PiEvent = AgentSessionEvent | PiLoopEvent;

export interface PiTranslatorState {
  turn: number;
  /** The reason of the compaction_start not yet ended, if one is open. */
  compaction: "manual" | "threshold" | "overflow" | undefined;
}

export function createPiTranslatorState(): PiTranslatorState {
  return { turn: 0, compaction: undefined };
}

/** What a blank summary is reported as: Pi stores it as if it had succeeded (MC-9: it is a failure). */
export const EMPTY_SUMMARY = "the compaction returned an empty summary";

const STOP_REASONS: Record<string, StopReason> = {
  stop: "end_turn",
  length: "max_tokens",
  toolUse: "tool_use",
  error: "error",
  aborted: "aborted",
};

export function normalisePiStopReason(reason: string | undefined): StopReason {
  return (reason && STOP_REASONS[reason]) || "other";
}

function isAssistant(message: unknown): message is AssistantMessage {
  return (
    typeof message === "object" && message !== null && (message as { role?: unknown }).role === "assistant"
  );
}

/** Translates one Pi event into zero or more AgentEvents, in order. */
export function translatePiEvent(event: PiEvent, state: PiTranslatorState): AgentEvent[] {
  switch (event.type) {
    case "agent_start":
    case "agent_end":
      // The product-turn lifecycle is BaseAgent's terminal event; nothing is lost here.
      return [];
    case "turn_start":
      state.turn++;
      return [{ type: "turn_start", turn: state.turn }];
    case "message_start":
      return [];
    case "message_update":
      return translateAssistantDelta(event.assistantMessageEvent);
    case "message_end": {
      const message = event.message;
      if (!isAssistant(message)) return [];
      const usage: AgentEvent = {
        type: "usage",
        usage: {
          input: message.usage.input,
          output: message.usage.output,
          cacheRead: message.usage.cacheRead,
          cacheWrite: message.usage.cacheWrite,
        },
      };
      // pi-ai keeps the response's model field only when it differs from the requested id.
      if (message.responseModel) usage.servedModel = message.responseModel;
      const out: AgentEvent[] = [usage];
      if (message.stopReason === "error") {
        out.push({
          type: "error",
          message: message.errorMessage ?? "the model call failed",
          code: "provider_error",
        });
      }
      return out;
    }
    case "tool_execution_start":
      return [{ type: "tool_use", id: event.toolCallId, name: event.toolName, input: event.args }];
    case "tool_execution_end": {
      const result = (event.result ?? {}) as { content?: ToolResultContent[]; details?: unknown };
      return [
        {
          type: "tool_result",
          toolUseId: event.toolCallId,
          name: event.toolName,
          content: result.content ?? [],
          isError: event.isError,
          ...(result.details !== undefined ? { details: result.details } : {}),
        },
      ];
    }
    case "turn_end": {
      const message = event.message;
      const vendor = isAssistant(message) ? message.stopReason : undefined;
      return [
        {
          type: "turn_end",
          turn: state.turn,
          stopReason: normalisePiStopReason(vendor),
          ...(vendor ? { vendorStopReason: vendor } : {}),
        },
      ];
    }
    case "compaction_start":
      state.compaction = event.reason;
      return [{ type: "compaction_start", reason: event.reason }];
    case "compaction_end":
      return translateCompactionEnd(event, state);
    case "auto_retry_start":
      // Pi decided to send the failed call again: a replay, reported with Pi's own reason.
      return [
        {
          type: "recovery",
          action: "replay",
          reason: `Pi auto-retry ${event.attempt}/${event.maxAttempts} in ${event.delayMs} ms: ${event.errorMessage}`,
        },
      ];
    case "auto_retry_end":
      return event.success
        ? []
        : [
            {
              type: "recovery",
              action: "fail-closed",
              reason: `Pi auto-retry gave up after ${event.attempt} attempt(s): ${event.finalError ?? "no reason given"}`,
            },
          ];
    default:
      return [{ type: "unknown", vendor: "pi", vendorType: (event as { type: string }).type, raw: event }];
  }
}

type PiCompactionEnd = Extract<AgentSessionEvent, { type: "compaction_end" }>;

function translateCompactionEnd(event: PiCompactionEnd, state: PiTranslatorState): AgentEvent[] {
  const opened = state.compaction !== undefined;
  state.compaction = undefined;
  if (!opened) {
    // Pi ends a compaction it never started only to refuse a second overflow recovery of one message.
    return [
      {
        type: "error",
        message: event.errorMessage ?? "Pi's overflow recovery ended without a compaction",
        code: "overflow_recovery_exhausted",
      },
    ];
  }
  const result = event.result;
  if (result && !event.aborted && event.errorMessage === undefined) {
    if (result.summary.trim() === "")
      return [
        {
          type: "compaction_end",
          ok: false,
          summary: result.summary,
          error: EMPTY_SUMMARY,
          tokensBefore: result.tokensBefore,
        },
      ];
    return [{ type: "compaction_end", ok: true, summary: result.summary, tokensBefore: result.tokensBefore }];
  }
  const error = event.aborted
    ? "the compaction was aborted"
    : (event.errorMessage ??
      "Pi's compaction ended without a result (no model, no key, or nothing to compact)");
  return [{ type: "compaction_end", ok: false, error }];
}

type PiDelta = Extract<PiEvent, { type: "message_update" }>["assistantMessageEvent"];

function translateAssistantDelta(delta: PiDelta): AgentEvent[] {
  switch (delta.type) {
    case "start":
    case "done":
    case "error":
      // Message boundaries and failures are reported once, from message_end.
      return [];
    case "text_start":
      return [{ type: "text_start", index: delta.contentIndex }];
    case "text_delta":
      return [{ type: "text_delta", index: delta.contentIndex, delta: delta.delta }];
    case "text_end":
      return [{ type: "text_end", index: delta.contentIndex, text: delta.content }];
    case "thinking_start":
      return [{ type: "thinking_start", index: delta.contentIndex }];
    case "thinking_delta":
      return [{ type: "thinking_delta", index: delta.contentIndex, delta: delta.delta }];
    case "thinking_end": {
      const block = delta.partial.content[delta.contentIndex];
      const signature = block && block.type === "thinking" ? block.thinkingSignature : undefined;
      const redacted = block && block.type === "thinking" && block.redacted === true;
      return [
        {
          type: "thinking_end",
          index: delta.contentIndex,
          thinking: delta.content,
          ...(signature ? { signature } : {}),
          ...(redacted ? { redacted } : {}),
        },
      ];
    }
    case "toolcall_start": {
      const block = delta.partial.content[delta.contentIndex];
      const id = block && block.type === "toolCall" ? block.id : "";
      const name = block && block.type === "toolCall" ? block.name : "";
      return [{ type: "toolcall_start", index: delta.contentIndex, id, name }];
    }
    case "toolcall_delta":
      return [{ type: "toolcall_delta", index: delta.contentIndex, delta: delta.delta }];
    case "toolcall_end":
      return [
        {
          type: "toolcall_end",
          index: delta.contentIndex,
          id: delta.toolCall.id,
          name: delta.toolCall.name,
          input: delta.toolCall.arguments,
        },
      ];
    default:
      return [
        {
          type: "unknown",
          vendor: "pi",
          vendorType: `message_update.${(delta as { type: string }).type}`,
          raw: delta,
        },
      ];
  }
}
