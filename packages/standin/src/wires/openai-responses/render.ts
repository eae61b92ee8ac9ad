// An answer as the OpenAI Responses API sends it (what Codex speaks): one response object, or the
// event sequence response.created, response.in_progress, then per output item
// response.output_item.added … done (reasoning: reasoning_summary_part/text events; message:
// content_part.added, output_text.delta …, output_text.done, content_part.done; function_call:
// function_call_arguments.delta …, .done), and response.completed with usage (or
// response.incomplete at max_output_tokens). Every event carries its sequence_number.
import { type SseFrame, sseFrame } from "../../http/sse.js";
import { standinId } from "../../ids.js";
import type { ReplyBlock, UsageCounts } from "../../types.js";
import { standinSignature } from "../anthropic/render.js";
import { jsonChunks, textChunks } from "../chunks.js";
import { isObject, type Json, type RenderInput, type Rendered } from "../codec.js";
import { openaiErrorObject } from "../errors.js";

export function responsesUsage(u: UsageCounts) {
  const input = u.input + u.cacheRead + u.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: input + u.output,
  };
}

/** Output items: thinking → reasoning, consecutive texts → one message, tool calls → function_call. */
function outputItems(content: ReplyBlock[], encrypted: boolean): Json[] {
  const items: Json[] = [];
  for (const b of content) {
    if (b.type === "thinking")
      items.push({
        type: "reasoning",
        id: standinId("rs"),
        summary: [{ type: "summary_text", text: b.thinking }],
        ...(encrypted ? { encrypted_content: b.signature ?? standinSignature(b.thinking) } : {}),
      });
    else if (b.type === "tool_call" && b.freeform)
      items.push({
        type: "custom_tool_call",
        id: standinId("ctc"),
        call_id: b.id ?? standinId("call"),
        name: b.name,
        input: String(b.input),
        status: "completed",
      });
    else if (b.type === "tool_call")
      items.push({
        type: "function_call",
        id: standinId("fc"),
        call_id: b.id ?? standinId("call"),
        name: b.name,
        ...(b.namespace ? { namespace: b.namespace } : {}),
        arguments: JSON.stringify(b.input ?? {}),
        status: "completed",
      });
    else {
      const part = { type: "output_text", text: b.text, annotations: [], logprobs: [] };
      const last = items.at(-1);
      if (last?.["type"] === "message") (last["content"] as Json[]).push(part);
      else
        items.push({
          type: "message",
          id: standinId("msg"),
          status: "completed",
          role: "assistant",
          content: [part],
        });
    }
  }
  return items;
}

function itemEvents(item: Json, output_index: number, ev: (type: string, data: Json) => void): void {
  const item_id = item["id"];
  if (item["type"] === "reasoning") {
    ev("response.output_item.added", { output_index, item: { ...item, summary: [] } });
    const text = String((item["summary"] as Json[])[0]?.["text"] ?? "");
    const at = { item_id, output_index, summary_index: 0 };
    ev("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
    for (const delta of textChunks(text)) ev("response.reasoning_summary_text.delta", { ...at, delta });
    ev("response.reasoning_summary_text.done", { ...at, text });
    ev("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
  } else if (item["type"] === "custom_tool_call") {
    ev("response.output_item.added", { output_index, item: { ...item, input: "", status: "in_progress" } });
    for (const delta of textChunks(String(item["input"])))
      ev("response.custom_tool_call_input.delta", { item_id, output_index, delta });
    ev("response.custom_tool_call_input.done", { item_id, output_index, input: item["input"] });
  } else if (item["type"] === "function_call") {
    ev("response.output_item.added", {
      output_index,
      item: { ...item, arguments: "", status: "in_progress" },
    });
    for (const delta of jsonChunks(String(item["arguments"])))
      ev("response.function_call_arguments.delta", { item_id, output_index, delta });
    ev("response.function_call_arguments.done", { item_id, output_index, arguments: item["arguments"] });
  } else {
    ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
    (item["content"] as Json[]).forEach((part, content_index) => {
      const at = { item_id, output_index, content_index };
      const text = String(part["text"]);
      ev("response.content_part.added", { ...at, part: { ...part, text: "" } });
      for (const delta of textChunks(text)) ev("response.output_text.delta", { ...at, delta, logprobs: [] });
      ev("response.output_text.done", { ...at, text, logprobs: [] });
      ev("response.content_part.done", { ...at, part });
    });
  }
  ev("response.output_item.done", { output_index, item });
}

const INCOMPLETE = new Set(["max_output_tokens", "content_filter"]);

export function renderResponses(input: RenderInput): Rendered {
  const body = input.request.body as Json;
  const include = Array.isArray(body["include"]) ? body["include"] : [];
  const items = outputItems(input.content, include.includes("reasoning.encrypted_content"));
  const reasoning = isObject(body["reasoning"]) ? body["reasoning"] : {};
  const base = {
    id: standinId("resp"),
    object: "response",
    created_at: Math.floor(input.now / 1000),
    status: "in_progress",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body["instructions"] ?? null,
    max_output_tokens: body["max_output_tokens"] ?? null,
    model: input.model,
    output: [] as Json[],
    parallel_tool_calls: body["parallel_tool_calls"] ?? true,
    previous_response_id: body["previous_response_id"] ?? null,
    reasoning: { effort: reasoning["effort"] ?? null, summary: reasoning["summary"] ?? null },
    store: body["store"] ?? true,
    temperature: 1,
    text: body["text"] ?? { format: { type: "text" } },
    tool_choice: body["tool_choice"] ?? "auto",
    tools: body["tools"] ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: null as unknown,
    user: null,
    metadata: {},
  };
  const reason = input.truncated
    ? "max_output_tokens"
    : INCOMPLETE.has(input.stopReason ?? "")
      ? input.stopReason
      : null;
  const final = {
    ...base,
    status: reason ? "incomplete" : "completed",
    incomplete_details: reason ? { reason } : null,
    output: items,
    usage: responsesUsage(input.usage),
  };
  const events: SseFrame[] = [];
  const ev = (type: string, data: Json) =>
    events.push(sseFrame(type, { type, sequence_number: events.length, ...data }));
  ev("response.created", { response: base });
  ev("response.in_progress", { response: base });
  items.forEach((item, i) => itemEvents(item, i, ev));
  ev(reason ? "response.incomplete" : "response.completed", { response: final });
  return {
    json: final,
    events,
    failure: (error, context, sent) => {
      const { code, message } = openaiErrorObject(error, context, "responses");
      return [
        sseFrame("response.failed", {
          type: "response.failed",
          sequence_number: sent,
          response: { ...base, status: "failed", error: { code: code ?? "server_error", message } },
        }),
      ];
    },
  };
}
