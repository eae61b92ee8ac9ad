// Anthropic Messages stream events → AgentEvent, one event at a time. Shared by the SSE
// translator and by Claude Code's `stream_event` partials (which wrap the same events).
import type { AgentEvent, StopReason, Usage } from "../../types.js";
import { cutMessage, interrupted } from "../errors.js";
import { parseToolInput } from "../json.js";
import { anthropicUsage } from "../usage.js";
import { anthropicRetryable, anthropicStopReason } from "./stop-reason.js";
import type { AnthropicEvent } from "./wire.js";

type BlockKind = "text" | "thinking" | "redacted" | "tool" | "other";

interface Block {
  kind: BlockKind;
  /** Text, thinking text, or the tool-input JSON received so far. */
  body: string;
  /** Thinking signature, or a redacted block's opaque data. */
  signature: string;
  id: string;
  name: string;
  /** The start block's tool input: the input when no input_json_delta carried any text. */
  startInput: unknown;
  closed: boolean;
}

/** Per-stream state: one object per stream, nothing global. */
export interface AnthropicState {
  /** `vendor` of the `unknown` events this state emits. */
  readonly vendor: string;
  /** Model calls started on this stream (turn numbers are 1-based). */
  turn: number;
  /** Between message_start and message_stop. */
  open: boolean;
  messageId: string | undefined;
  /** Content blocks of the current message by their index; kept until the next message_start. */
  blocks: (Block | undefined)[];
  /** Usage snapshot: message_start values, overwritten by message_delta's cumulative ones. */
  usage: Usage;
  stopReason: string | null;
  sawError: boolean;
}

export function createAnthropicState(vendor = "anthropic"): AnthropicState {
  return {
    vendor,
    turn: 0,
    open: false,
    messageId: undefined,
    blocks: [],
    usage: anthropicUsage(undefined),
    stopReason: null,
    sawError: false,
  };
}

export function translateAnthropicEvent(s: AnthropicState, ev: AnthropicEvent, out: AgentEvent[]): void {
  switch (ev.type) {
    case "message_start":
      messageStart(s, ev, out);
      return;
    case "content_block_start":
      if (s.open && blockStart(s, ev, out)) return;
      break;
    case "content_block_delta":
      if (s.open && blockDelta(s, ev, out)) return;
      break;
    case "content_block_stop":
      if (s.open && blockStop(s, ev.index, out)) return;
      break;
    case "message_delta":
      if (s.open) {
        messageDelta(s, ev);
        return;
      }
      break;
    case "message_stop":
      if (s.open) {
        for (let i = 0; i < s.blocks.length; i++) if (s.blocks[i]?.closed === false) blockStop(s, i, out);
        closeTurn(s, out, anthropicStopReason(s.stopReason), s.stopReason ?? undefined);
        return;
      }
      break;
    case "ping": // keep-alive: carries nothing
      return;
    case "error":
      vendorError(s, ev, out);
      return;
  }
  // Unknown types, block types we do not model (server tools, citations) and out-of-order events.
  out.push({ type: "unknown", vendor: s.vendor, vendorType: String(ev.type), raw: ev });
}

/** Input ended: a message still open, or none at all, means the stream was cut. */
export function endAnthropic(s: AnthropicState, out: AgentEvent[], cut: string | undefined): void {
  if (s.open) failOpenMessage(s, out, cutMessage(cut, "message_stop"));
  else if (s.turn === 0 && !s.sawError) {
    out.push(cutMessage(cut, "message_start"));
  }
}

/** Ends the open message as failed with `error` (a cut or interrupted stream). */
export function failOpenMessage(s: AnthropicState, out: AgentEvent[], error: AgentEvent): void {
  out.push(error);
  closeTurn(s, out, "error");
}

function messageStart(s: AnthropicState, ev: AnthropicEvent, out: AgentEvent[]): void {
  if (s.open) failOpenMessage(s, out, interrupted("message_stop", "message_start"));
  const message = ev.message;
  s.turn++;
  s.open = true;
  s.messageId = message?.id;
  s.blocks.length = 0;
  s.usage = anthropicUsage(message?.usage);
  s.stopReason = message?.stop_reason ?? null;
  const start: AgentEvent = { type: "turn_start", turn: s.turn };
  if (message?.id !== undefined) start.messageId = message.id;
  if (message?.model !== undefined) start.model = message.model;
  out.push(start);
}

function blockStart(s: AnthropicState, ev: AnthropicEvent, out: AgentEvent[]): boolean {
  const index = ev.index;
  const cb = ev.content_block;
  if (typeof index !== "number" || cb === undefined) return false;
  const block: Block = {
    kind: "other",
    body: "",
    signature: "",
    id: "",
    name: "",
    startInput: undefined,
    closed: false,
  };
  s.blocks[index] = block;
  switch (cb.type) {
    case "text":
      block.kind = "text";
      out.push({ type: "text_start", index });
      if (cb.text) {
        block.body = cb.text;
        out.push({ type: "text_delta", index, delta: cb.text });
      }
      return true;
    case "thinking":
      block.kind = "thinking";
      block.signature = cb.signature ?? "";
      out.push({ type: "thinking_start", index });
      if (cb.thinking) {
        block.body = cb.thinking;
        out.push({ type: "thinking_delta", index, delta: cb.thinking });
      }
      return true;
    case "redacted_thinking":
      block.kind = "redacted";
      block.signature = cb.data ?? "";
      out.push({ type: "thinking_start", index, redacted: true });
      return true;
    case "tool_use":
      block.kind = "tool";
      block.id = cb.id ?? "";
      block.name = cb.name ?? "";
      block.startInput = cb.input ?? {};
      out.push({ type: "toolcall_start", index, id: block.id, name: block.name });
      return true;
    default:
      return false; // stays "other": its deltas and stop are carried as unknown too
  }
}

function blockDelta(s: AnthropicState, ev: AnthropicEvent, out: AgentEvent[]): boolean {
  const index = ev.index;
  const block = typeof index === "number" ? s.blocks[index] : undefined;
  const d = ev.delta;
  if (block === undefined || block.closed || d === undefined || index === undefined) return false;
  switch (d.type) {
    case "text_delta":
      if (block.kind !== "text") return false;
      if (d.text) {
        block.body += d.text;
        out.push({ type: "text_delta", index, delta: d.text });
      }
      return true;
    case "thinking_delta":
      if (block.kind !== "thinking") return false;
      if (d.thinking) {
        block.body += d.thinking;
        out.push({ type: "thinking_delta", index, delta: d.thinking });
      }
      return true;
    case "signature_delta":
      if (block.kind !== "thinking") return false;
      block.signature += d.signature ?? "";
      return true;
    case "input_json_delta":
      if (block.kind !== "tool") return false;
      // The first delta is often empty: it carries nothing, so it makes no event.
      if (d.partial_json) {
        block.body += d.partial_json;
        out.push({ type: "toolcall_delta", index, delta: d.partial_json });
      }
      return true;
    default:
      return false; // citations_delta and future delta types: carried as unknown
  }
}

function blockStop(s: AnthropicState, index: number | undefined, out: AgentEvent[]): boolean {
  const block = typeof index === "number" ? s.blocks[index] : undefined;
  if (block === undefined || index === undefined || block.closed || block.kind === "other") return false;
  block.closed = true;
  switch (block.kind) {
    case "text":
      out.push({ type: "text_end", index, text: block.body });
      break;
    case "thinking": {
      const end: AgentEvent = { type: "thinking_end", index, thinking: block.body };
      if (block.signature) end.signature = block.signature;
      out.push(end);
      break;
    }
    case "redacted":
      out.push({ type: "thinking_end", index, thinking: "", signature: block.signature, redacted: true });
      break;
    case "tool":
      out.push({
        type: "toolcall_end",
        index,
        id: block.id,
        name: block.name,
        input: parseToolInput(block.body, block.startInput),
      });
      break;
  }
  return true;
}

function messageDelta(s: AnthropicState, ev: AnthropicEvent): void {
  if (ev.delta?.stop_reason !== undefined) s.stopReason = ev.delta.stop_reason;
  const u = ev.usage;
  if (u === undefined) return;
  // Cumulative values: overwrite, never add (one usage event per message, at its end).
  if (typeof u.output_tokens === "number") s.usage.output = u.output_tokens;
  if (typeof u.input_tokens === "number") s.usage.input = u.input_tokens;
  if (typeof u.cache_read_input_tokens === "number") s.usage.cacheRead = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === "number") s.usage.cacheWrite = u.cache_creation_input_tokens;
}

function vendorError(s: AnthropicState, ev: AnthropicEvent, out: AgentEvent[]): void {
  s.sawError = true;
  const type = ev.error?.type;
  const error: AgentEvent = {
    type: "error",
    message: ev.error?.message ?? "stream error",
    retryable: anthropicRetryable(type),
  };
  if (type !== undefined) error.code = type;
  out.push(error);
  if (s.open) closeTurn(s, out, "error");
}

/**
 * Usage (reported even for a failed call: its input was consumed), then turn_end. Open blocks
 * of a failed call get no *_end: a partial tool call must never look complete to a host.
 */
function closeTurn(
  s: AnthropicState,
  out: AgentEvent[],
  stopReason: StopReason,
  vendorStopReason?: string,
): void {
  s.open = false;
  out.push({ type: "usage", usage: s.usage });
  const end: AgentEvent = { type: "turn_end", turn: s.turn, stopReason };
  if (vendorStopReason !== undefined) end.vendorStopReason = vendorStopReason;
  out.push(end);
}
