// An answer as Anthropic sends it: one Message object, or the SSE sequence message_start, ping,
// content_block_start / _delta / _stop per block (text_delta, thinking_delta + signature_delta,
// input_json_delta in several parts), message_delta (stop_reason, usage), message_stop.
import { createHash } from "node:crypto";
import { type SseFrame, sseFrame } from "../../http/sse.js";
import { standinId } from "../../ids.js";
import type { ReplyBlock, UsageCounts } from "../../types.js";
import { qualifiedName } from "../../usage/tokens.js";
import { jsonChunks, textChunks } from "../chunks.js";
import type { RenderInput, Rendered } from "../codec.js";
import { anthropicErrorObject } from "../errors.js";

/** A stand-in signature: opaque, deterministic, and says what it is. */
export function standinSignature(thinking: string): string {
  return `standin_sig_${createHash("sha256").update(thinking).digest("base64url").slice(0, 32)}`;
}

function usageBody(u: UsageCounts) {
  return {
    input_tokens: u.input,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    output_tokens: u.output,
    service_tier: "standard",
  };
}

type Block = Record<string, unknown>;

function finalBlock(b: ReplyBlock): Block {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "thinking":
      return {
        type: "thinking",
        thinking: b.thinking,
        signature: b.signature ?? standinSignature(b.thinking),
      };
    case "tool_call":
      return {
        type: "tool_use",
        id: b.id ?? standinId("toolu"),
        name: qualifiedName(b),
        input: b.input ?? {},
      };
  }
}

function blockEvents(index: number, b: Block): SseFrame[] {
  const delta = (d: unknown) =>
    sseFrame("content_block_delta", { type: "content_block_delta", index, delta: d });
  const start = (content_block: unknown) =>
    sseFrame("content_block_start", { type: "content_block_start", index, content_block });
  const out: SseFrame[] = [];
  if (b["type"] === "text") {
    out.push(start({ type: "text", text: "" }));
    for (const t of textChunks(String(b["text"]))) out.push(delta({ type: "text_delta", text: t }));
  } else if (b["type"] === "thinking") {
    out.push(start({ type: "thinking", thinking: "", signature: "" }));
    for (const t of textChunks(String(b["thinking"])))
      out.push(delta({ type: "thinking_delta", thinking: t }));
    out.push(delta({ type: "signature_delta", signature: b["signature"] }));
  } else {
    out.push(start({ type: "tool_use", id: b["id"], name: b["name"], input: {} }));
    for (const part of jsonChunks(JSON.stringify(b["input"])))
      out.push(delta({ type: "input_json_delta", partial_json: part }));
  }
  out.push(sseFrame("content_block_stop", { type: "content_block_stop", index }));
  return out;
}

export function renderAnthropic(input: RenderInput): Rendered {
  const id = standinId("msg");
  const content = input.content.map(finalBlock);
  const stop =
    input.stopReason ??
    (input.truncated
      ? "max_tokens"
      : content.some((b) => b["type"] === "tool_use")
        ? "tool_use"
        : "end_turn");
  const message = {
    id,
    type: "message",
    role: "assistant",
    model: input.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: usageBody(input.usage),
  };
  const events: SseFrame[] = [
    sseFrame("message_start", {
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: usageBody({ ...input.usage, output: Math.min(1, input.usage.output) }),
      },
    }),
    sseFrame("ping", { type: "ping" }),
    ...content.flatMap((b, i) => blockEvents(i, b)),
    sseFrame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: usageBody(input.usage),
    }),
    sseFrame("message_stop", { type: "message_stop" }),
  ];
  return {
    json: message,
    events,
    failure: (error, context) => [
      sseFrame("error", { type: "error", error: anthropicErrorObject(error, context) }),
    ],
  };
}
