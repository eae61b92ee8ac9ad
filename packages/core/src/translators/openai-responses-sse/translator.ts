// OpenAI Responses API SSE bytes → AgentEvents. Output items are addressed by output_index
// and content parts by content_index; each message content part, reasoning item and function
// call becomes one block, numbered in the order it appears.
import type { AgentEvent, StopReason } from "../../types.js";
import { parseTypedEvent, runSse, type ByteStream, type SseTranslator } from "../drive.js";
import { cutMessage, interrupted } from "../errors.js";
import { appendDelta, closeBlock, openBlock, type StreamBlock } from "../blocks.js";
import { openaiUsage } from "../usage.js";
import type { ResponsesEvent, ResponsesItem, ResponsesResponse } from "./wire.js";

const VENDOR = "openai-responses";
/** Summary parts of one reasoning item form one thinking block, joined as OpenAI's clients join them. */
const SUMMARY_SEPARATOR = "\n\n";

interface Item {
  kind: "message" | "reasoning" | "function_call" | "other";
  /** Reasoning and function-call items are one block. */
  block: StreamBlock | undefined;
  /** Message content parts by content_index. */
  parts: (StreamBlock | undefined)[];
}

interface ResponsesState {
  turn: number;
  open: boolean;
  items: (Item | undefined)[];
  blocks: StreamBlock[];
  calledTool: boolean;
  refused: boolean;
  sawError: boolean;
}

export function openaiResponsesSseTranslator(): SseTranslator {
  const s: ResponsesState = {
    turn: 0,
    open: false,
    items: [],
    blocks: [],
    calledTool: false,
    refused: false,
    sawError: false,
  };
  return {
    event(_eventType, data, line, out) {
      const ev = parseTypedEvent(data, line, out);
      if (ev === undefined) return false;
      translateResponsesEvent(s, ev as ResponsesEvent, out);
      return true;
    },
    end(out, cut) {
      if (s.open) {
        out.push(cutMessage(cut, "response.completed, response.incomplete or response.failed"));
        closeTurn(s, out, undefined, "error");
      } else if (s.turn === 0 && !s.sawError) {
        out.push(cutMessage(cut, "response.created"));
      }
    },
  };
}

export function translateOpenAIResponsesSse(input: ByteStream): AsyncGenerator<AgentEvent> {
  return runSse(input, openaiResponsesSseTranslator());
}

function translateResponsesEvent(s: ResponsesState, ev: ResponsesEvent, out: AgentEvent[]): void {
  if (ev.type === "response.created") return startTurn(s, ev.response, out);
  if (ev.type === "error") return vendorError(s, ev.message, ev.code ?? undefined, out);
  if (s.open && handled(s, ev, out)) return;
  out.push({ type: "unknown", vendor: VENDOR, vendorType: String(ev.type), raw: ev });
}

/** True when the event was translated (or carries nothing); false to carry it as unknown. */
function handled(s: ResponsesState, ev: ResponsesEvent, out: AgentEvent[]): boolean {
  const item = typeof ev.output_index === "number" ? s.items[ev.output_index] : undefined;
  switch (ev.type) {
    case "response.in_progress":
    case "response.queued":
    case "response.output_text.done":
    case "response.refusal.done":
    case "response.reasoning_summary_text.done":
    case "response.reasoning_summary_part.done":
    case "response.reasoning_text.done":
    case "response.function_call_arguments.done":
      return true; // snapshots of what the deltas already carried
    case "response.output_item.added":
      return itemAdded(s, ev.output_index, ev.item, out);
    case "response.content_part.added": {
      const type = ev.part?.type;
      if (
        item?.kind !== "message" ||
        typeof ev.content_index !== "number" ||
        (type !== "output_text" && type !== "refusal")
      )
        return false;
      const block = (item.parts[ev.content_index] = openBlock(s.blocks, "text", out));
      if (type === "refusal") s.refused = true;
      const initial = type === "refusal" ? ev.part?.refusal : ev.part?.text;
      if (initial) appendDelta(block, initial, out);
      return true;
    }
    case "response.output_text.delta":
    case "response.refusal.delta": {
      const block = typeof ev.content_index === "number" ? item?.parts[ev.content_index] : undefined;
      if (block === undefined || block.closed) return false;
      if (ev.delta) appendDelta(block, ev.delta, out);
      return true;
    }
    case "response.content_part.done": {
      const block = typeof ev.content_index === "number" ? item?.parts[ev.content_index] : undefined;
      if (block === undefined) return false;
      closeBlock(block, out);
      return true;
    }
    case "response.reasoning_summary_part.added":
      if (item?.kind !== "reasoning" || item.block === undefined) return false;
      if ((ev.summary_index ?? 0) > 0) appendDelta(item.block, SUMMARY_SEPARATOR, out);
      return true;
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_text.delta":
    case "response.function_call_arguments.delta":
      if (item?.block === undefined || item.block.closed) return false;
      if (ev.delta) appendDelta(item.block, ev.delta, out);
      return true;
    case "response.output_item.done":
      return itemDone(s, item, ev.item, out);
    case "response.completed":
      closeTurn(
        s,
        out,
        ev.response,
        s.calledTool ? "tool_use" : s.refused ? "refusal" : "end_turn",
        ev.response?.status ?? "completed",
      );
      return true;
    case "response.incomplete": {
      const reason = ev.response?.incomplete_details?.reason;
      const stop: StopReason =
        reason === "max_output_tokens" ? "max_tokens" : reason === "content_filter" ? "refusal" : "other";
      closeTurn(s, out, ev.response, stop, reason ?? ev.response?.status ?? "incomplete");
      return true;
    }
    case "response.failed": {
      const error = ev.response?.error;
      vendorError(s, error?.message ?? "response failed", error?.code, out, ev.response);
      return true;
    }
    default:
      return false; // built-in tool calls, annotations, audio, future types
  }
}

function startTurn(s: ResponsesState, response: ResponsesResponse | undefined, out: AgentEvent[]): void {
  if (s.open) {
    out.push(interrupted("response.completed", "response.created"));
    closeTurn(s, out, undefined, "error");
  }
  s.turn++;
  s.open = true;
  s.items = [];
  s.blocks = [];
  s.calledTool = s.refused = false;
  const start: AgentEvent = { type: "turn_start", turn: s.turn };
  if (response?.id !== undefined) start.messageId = response.id;
  if (response?.model !== undefined) start.model = response.model;
  out.push(start);
}

function itemAdded(
  s: ResponsesState,
  outputIndex: number | undefined,
  raw: ResponsesItem | undefined,
  out: AgentEvent[],
): boolean {
  if (typeof outputIndex !== "number" || raw === undefined) return false;
  const item: Item = { kind: "other", block: undefined, parts: [] };
  s.items[outputIndex] = item;
  switch (raw.type) {
    case "message":
      item.kind = "message";
      return true;
    case "reasoning":
      item.kind = "reasoning";
      item.block = openBlock(s.blocks, "thinking", out);
      return true;
    case "function_call":
      item.kind = "function_call";
      // call_id is what a function_call_output must answer; `id` is only the item's own id.
      item.block = openBlock(s.blocks, "tool", out, raw.call_id ?? raw.id ?? "", raw.name ?? "");
      if (raw.arguments) appendDelta(item.block, raw.arguments, out);
      return true;
    default:
      return false; // web_search_call, file_search_call, computer_call, mcp_call, …
  }
}

function itemDone(
  s: ResponsesState,
  item: Item | undefined,
  raw: ResponsesItem | undefined,
  out: AgentEvent[],
): boolean {
  if (item === undefined || item.kind === "other") return false;
  if (item.kind === "message") {
    for (const part of item.parts) if (part !== undefined) closeBlock(part, out);
    return true;
  }
  const block = item.block!;
  if (item.kind === "function_call") {
    s.calledTool = true;
    if (raw?.call_id) block.id = raw.call_id;
    if (raw?.name) block.name = raw.name;
  }
  closeBlock(block, out, raw?.encrypted_content ?? undefined);
  return true;
}

function vendorError(
  s: ResponsesState,
  message: string | undefined,
  code: string | undefined,
  out: AgentEvent[],
  response?: ResponsesResponse,
): void {
  s.sawError = true;
  const error: AgentEvent = { type: "error", message: message ?? "stream error" };
  if (code) error.code = code;
  out.push(error);
  if (s.open) closeTurn(s, out, response, "error", response?.status);
}

/** Usage when the response carries it, then turn_end. Blocks of a failed response get no *_end. */
function closeTurn(
  s: ResponsesState,
  out: AgentEvent[],
  response: ResponsesResponse | undefined,
  stopReason: StopReason,
  vendorStopReason?: string,
): void {
  s.open = false;
  if (stopReason !== "error") for (const b of s.blocks) closeBlock(b, out);
  const u = response?.usage;
  if (u)
    out.push({
      type: "usage",
      usage: openaiUsage(u.input_tokens, u.input_tokens_details?.cached_tokens, u.output_tokens),
    });
  const end: AgentEvent = { type: "turn_end", turn: s.turn, stopReason };
  if (vendorStopReason !== undefined) end.vendorStopReason = vendorStopReason;
  out.push(end);
}
