// OpenAI Chat Completions SSE bytes → AgentEvents. Tool calls are keyed by their `index`
// (ids and names arrive only in a call's first delta); blocks get message positions in the
// order they first appear and close at finish_reason; usage (the final usage-only chunk)
// and turn_end wait for [DONE] or the end of input.
import type { AgentEvent, StopReason, Usage } from "../../types.js";
import { runSse, type ByteStream, type SseTranslator } from "../drive.js";
import { cutMessage, interrupted, malformed } from "../errors.js";
import { parseObject } from "../json.js";
import { appendDelta, closeBlock, openBlock, type StreamBlock } from "../blocks.js";
import { openaiUsage } from "../usage.js";
import type { ChatChoiceDelta, ChatChunk } from "./wire.js";

const VENDOR = "openai-chat";

interface ChatState {
  turn: number;
  open: boolean;
  id: string | undefined;
  /** Blocks of the current completion in index order. */
  blocks: StreamBlock[];
  text: StreamBlock | undefined;
  refusal: StreamBlock | undefined;
  reasoning: StreamBlock | undefined;
  /** Tool-call blocks by the vendor's tool_call index. */
  tools: (StreamBlock | undefined)[];
  finish: string | null;
  usage: Usage | undefined;
  done: boolean;
  sawError: boolean;
}

export function openaiChatSseTranslator(): SseTranslator {
  const s: ChatState = {
    turn: 0,
    open: false,
    id: undefined,
    blocks: [],
    text: undefined,
    refusal: undefined,
    reasoning: undefined,
    tools: [],
    finish: null,
    usage: undefined,
    done: false,
    sawError: false,
  };
  return {
    event(_eventType, data, line, out) {
      if (data === "[DONE]") {
        s.done = true;
        if (s.open) finishTurn(s, out);
        return true;
      }
      const chunk = parseObject(data);
      if (chunk === undefined) {
        out.push(malformed(line, 'a JSON chunk or [DONE] after "data:"', data));
        return false;
      }
      translateChatChunk(s, chunk as ChatChunk, out);
      return true;
    },
    end(out, cut) {
      if (s.open && s.finish !== null) {
        finishTurn(s, out);
        // The message is complete, but what followed (usage, [DONE]) was cut: say so.
        if (cut !== undefined && !s.done) out.push(cutMessage(cut, "[DONE]"));
      } else if (s.open) {
        out.push(cutMessage(cut, "a finish_reason"));
        closeTurn(s, out, "error");
      } else if (s.turn === 0 && !s.sawError) {
        out.push(cutMessage(cut, "the first chunk"));
      }
    },
  };
}

export function translateOpenAIChatSse(input: ByteStream): AsyncGenerator<AgentEvent> {
  return runSse(input, openaiChatSseTranslator());
}

function translateChatChunk(s: ChatState, c: ChatChunk, out: AgentEvent[]): void {
  if (c.error) {
    s.sawError = true;
    const error: AgentEvent = { type: "error", message: c.error.message ?? "stream error" };
    const code = c.error.code ?? c.error.type;
    if (code) error.code = code;
    out.push(error);
    if (s.open) closeTurn(s, out, "error");
    return;
  }
  // An empty id (Azure's prompt-filter chunk comes first with id "") never splits a completion.
  if (s.open && c.id && s.id && c.id !== s.id) {
    // Another completion follows in the same capture (the SDK also starts a new one on a new id).
    if (s.finish !== null) finishTurn(s, out);
    else {
      out.push(interrupted(`a finish_reason for ${s.id}`, `chunks of ${c.id}`));
      closeTurn(s, out, "error");
    }
  }
  if (!s.open) startTurn(s, c, out);
  else if (!s.id && c.id) s.id = c.id;
  const choices = c.choices;
  if (choices) {
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i]!;
      // AgentEvent has no notion of n > 1 alternatives: other choices are carried, not merged.
      if ((choice.index ?? 0) === 0) applyChoice(s, choice, out);
      else out.push({ type: "unknown", vendor: VENDOR, vendorType: "choice", raw: choice });
    }
  }
  if (c.usage)
    s.usage = openaiUsage(
      c.usage.prompt_tokens,
      c.usage.prompt_tokens_details?.cached_tokens,
      c.usage.completion_tokens,
    );
}

function startTurn(s: ChatState, c: ChatChunk, out: AgentEvent[]): void {
  s.turn++;
  s.open = true;
  s.id = c.id;
  s.blocks = [];
  s.text = s.refusal = s.reasoning = undefined;
  s.tools = [];
  s.finish = null;
  s.usage = undefined;
  const start: AgentEvent = { type: "turn_start", turn: s.turn };
  if (c.id) start.messageId = c.id;
  if (c.model) start.model = c.model;
  out.push(start);
}

function applyChoice(s: ChatState, choice: ChatChoiceDelta, out: AgentEvent[]): void {
  const d = choice.delta;
  if (d) {
    const reasoning = d.reasoning_content ?? d.reasoning;
    if (reasoning) appendDelta((s.reasoning ??= openBlock(s.blocks, "thinking", out)), reasoning, out);
    if (d.content) appendDelta((s.text ??= openBlock(s.blocks, "text", out)), d.content, out);
    // A refusal is what the model said to the user: a text block of its own (stop reason "refusal").
    if (d.refusal) appendDelta((s.refusal ??= openBlock(s.blocks, "text", out)), d.refusal, out);
    const calls = d.tool_calls;
    if (calls) {
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i]!;
        const slot = call.index ?? 0;
        let block = s.tools[slot];
        if (block === undefined) {
          block = s.tools[slot] = openBlock(s.blocks, "tool", out, call.id ?? "", call.function?.name ?? "");
        } else {
          if (call.id) block.id = call.id;
          if (call.function?.name) block.name = call.function.name;
        }
        const args = call.function?.arguments;
        if (args) appendDelta(block, args, out);
      }
    }
  }
  if (choice.finish_reason) {
    s.finish = choice.finish_reason;
    closeBlocks(s, out);
  }
}

function closeBlocks(s: ChatState, out: AgentEvent[]): void {
  for (const b of s.blocks) closeBlock(b, out);
}

function finishTurn(s: ChatState, out: AgentEvent[]): void {
  closeBlocks(s, out);
  closeTurn(s, out, chatStopReason(s.finish, s.refusal !== undefined), s.finish ?? undefined);
}

/** Usage when the stream reported it (only with stream_options.include_usage), then turn_end. */
function closeTurn(s: ChatState, out: AgentEvent[], stopReason: StopReason, vendorStopReason?: string): void {
  s.open = false;
  if (s.usage) out.push({ type: "usage", usage: s.usage });
  const end: AgentEvent = { type: "turn_end", turn: s.turn, stopReason };
  if (vendorStopReason !== undefined) end.vendorStopReason = vendorStopReason;
  out.push(end);
}

function chatStopReason(finish: string | null, refused: boolean): StopReason {
  switch (finish) {
    case "stop":
      return refused ? "refusal" : "end_turn";
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "other";
  }
}
