// An answer as OpenAI Chat Completions sends it: one chat.completion, or chat.completion.chunk
// events (role first, content deltas, tool_calls with an index, id and name first and
// `function.arguments` in parts after), a finish_reason chunk, the usage chunk when the request
// asked for it (`stream_options.include_usage`; every earlier chunk then carries `usage: null`),
// and `[DONE]`. Thinking goes out as `reasoning_content`, as OpenAI-compatible servers send it.
import { type SseFrame, sseFrame } from "../../http/sse.js";
import { standinId } from "../../ids.js";
import type { UsageCounts } from "../../types.js";
import { qualifiedName } from "../../usage/tokens.js";
import { jsonChunks, textChunks } from "../chunks.js";
import { isObject, type RenderInput, type Rendered } from "../codec.js";
import { openaiErrorObject } from "../errors.js";

export function chatUsage(u: UsageCounts) {
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function renderChat(input: RenderInput): Rendered {
  const id = standinId("chatcmpl");
  const created = Math.floor(input.now / 1000);
  const calls = input.content.flatMap((b) =>
    b.type === "tool_call"
      ? [{ id: b.id ?? standinId("call"), name: qualifiedName(b), args: JSON.stringify(b.input ?? {}) }]
      : [],
  );
  const text = input.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  const thinking = input.content.flatMap((b) => (b.type === "thinking" ? [b.thinking] : [])).join("");
  const finish = input.stopReason ?? (input.truncated ? "length" : calls.length > 0 ? "tool_calls" : "stop");
  const toolCalls = calls.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: c.args },
  }));
  const json = {
    id,
    object: "chat.completion",
    created,
    model: input.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text || null,
          ...(thinking ? { reasoning_content: thinking } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage: chatUsage(input.usage),
    service_tier: "default",
    system_fingerprint: "standin",
  };
  const options = (input.request.body as Record<string, unknown>)["stream_options"];
  const includeUsage = isObject(options) && options["include_usage"] === true;
  const chunk = (delta: unknown, finish_reason: string | null = null) =>
    sseFrame(undefined, {
      id,
      object: "chat.completion.chunk",
      created,
      model: input.model,
      system_fingerprint: "standin",
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const events: SseFrame[] = [chunk({ role: "assistant", content: "", refusal: null })];
  if (thinking) for (const t of textChunks(thinking)) events.push(chunk({ reasoning_content: t }));
  if (text) for (const t of textChunks(text)) events.push(chunk({ content: t }));
  calls.forEach((c, index) => {
    events.push(
      chunk({
        tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }],
      }),
    );
    for (const part of jsonChunks(c.args))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(chunk({}, finish));
  if (includeUsage)
    events.push(
      sseFrame(undefined, {
        id,
        object: "chat.completion.chunk",
        created,
        model: input.model,
        system_fingerprint: "standin",
        choices: [],
        usage: chatUsage(input.usage),
      }),
    );
  events.push(sseFrame(undefined, "[DONE]"));
  return {
    json,
    events,
    failure: (error, context) => [sseFrame(undefined, { error: openaiErrorObject(error, context, "chat") })],
  };
}
