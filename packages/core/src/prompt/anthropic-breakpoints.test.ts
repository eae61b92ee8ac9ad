import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessageEvent, type Context, streamAnthropic } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../agent/tool.js";
import { PiAgent } from "../harness/pi/pi-agent.js";
import { toPiModel } from "../harness/pi/pi-model.js";
import { resolveModel } from "../models/registry.js";
import type { AgentEvent } from "../types.js";
import {
  ANTHROPIC_MAX_BREAKPOINTS,
  anthropicBreakpoints,
  placeAnthropicCacheBreakpoints,
  requiredAnthropicBreakpoints,
} from "./anthropic-breakpoints.js";

// A documented Messages API stream (cache counters beside input_tokens), answered by a stand-in
// client so pi-ai's real anthropic provider builds the request and parses the response offline.
const SSE = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":2048,"cache_read_input_tokens":10240,"output_tokens":1}}}',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Cached answer."}}',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":42}}',
  'event: message_stop\ndata: {"type":"message_stop"}',
].join("\n\n");

function fakeClient(sent: unknown[]) {
  return {
    messages: {
      create: (params: unknown) => {
        sent.push(params);
        return {
          asResponse: async () =>
            new Response(`${SSE}\n\n`, { headers: { "content-type": "text/event-stream" } }),
        };
      },
    },
  };
}

const echo = defineTool({
  name: "echo",
  label: "Echo",
  description: "Echoes text.",
  parameters: Type.Object({ text: Type.String() }),
  validate: (raw) => ({ ok: true, value: raw as { text: string } }),
  execute: async (input) => textOutcome(input.text),
});

const MODEL = resolveModel("claude-sonnet-4-5-20250929");
const CONTEXT: Context = {
  systemPrompt: "You are a careful agent.",
  tools: [
    { name: "a", description: "A.", parameters: Type.Object({}) },
    { name: "b", description: "B.", parameters: Type.Object({}) },
  ],
  messages: [
    { role: "user", content: "first", timestamp: 0 },
    {
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: MODEL.id,
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: 0,
    },
    { role: "user", content: "second", timestamp: 0 },
  ],
};

async function drain(stream: AsyncIterable<AssistantMessageEvent>): Promise<void> {
  for await (const _ of stream) void _;
}

describe("MC-3 Anthropic cache breakpoints on the stable prefix", () => {
  it("pi-ai's provider marks the last tool, the system block and the last user block: three, within the limit of four", async () => {
    const seen: unknown[] = [];
    await drain(
      streamAnthropic(toPiModel(MODEL), CONTEXT, {
        apiKey: "test",
        client: fakeClient([]) as never,
        onPayload: (p) => void seen.push(structuredClone(p)),
      }),
    );
    const payload = seen[0];
    expect(anthropicBreakpoints(payload)).toEqual(["tools[1]", "system[0]", "messages[2].content[0]"]);
    expect(requiredAnthropicBreakpoints(payload)).toEqual(anthropicBreakpoints(payload));
    // Our pass leaves a correct payload exactly as it is.
    expect(placeAnthropicCacheBreakpoints(structuredClone(payload))).toEqual(payload);
  });

  it("adds missing breakpoints (string system and user content become blocks) and keeps the TTL already chosen", () => {
    const payload = {
      tools: [{ name: "a" }, { name: "b", cache_control: { type: "ephemeral", ttl: "1h" } }],
      system: "stable",
      messages: [{ role: "user", content: "hello" }],
    };
    placeAnthropicCacheBreakpoints(payload);
    expect(anthropicBreakpoints(payload)).toEqual(["tools[1]", "system[0]", "messages[0].content[0]"]);
    expect(payload.system).toEqual([
      { type: "text", text: "stable", cache_control: { type: "ephemeral", ttl: "1h" } },
    ]);
  });

  it("drops extra markers beyond four, from the end of the request, never a required one", () => {
    const marked = (text: string) => ({ type: "text", text, cache_control: { type: "ephemeral" } });
    const payload = {
      tools: [{ name: "a", cache_control: { type: "ephemeral" } }, { name: "b" }],
      system: [marked("one"), marked("two")],
      messages: [
        { role: "user", content: [marked("u1")] },
        { role: "assistant", content: [marked("a1")] },
        { role: "user", content: [{ type: "text", text: "u2" }] },
      ],
    };
    placeAnthropicCacheBreakpoints(payload);
    const after = anthropicBreakpoints(payload);
    expect(after).toHaveLength(ANTHROPIC_MAX_BREAKPOINTS);
    for (const required of ["tools[1]", "system[1]", "messages[2].content[0]"])
      expect(after).toContain(required);
    expect(after).toEqual(["tools[0]", "tools[1]", "system[1]", "messages[2].content[0]"]);
  });

  it("a Pi session on an Anthropic model sends the checked payload, and reports the provider's cache counters as usage", async () => {
    const sent: unknown[] = [];
    const client = fakeClient(sent);
    const streamFn: StreamFn = (model, context, options) =>
      streamAnthropic(model as never, context, { ...options, apiKey: "test", client: client as never });
    const agent = new PiAgent(
      { sessionId: "anthropic-1", systemPrompt: "You are a careful agent.", model: MODEL, tools: [echo] },
      { streamFn },
    );
    const events: AgentEvent[] = [];
    for await (const e of agent.send("hello")) events.push(e);
    expect(events.at(-1)).toEqual({ type: "terminal", status: "done" });
    expect(anthropicBreakpoints(sent[0])).toEqual(["tools[0]", "system[0]", "messages[0].content[0]"]);
    // Anthropic reports cache tokens beside input_tokens: input stays the uncached 3.
    expect(events.filter((e) => e.type === "usage")).toEqual([
      { type: "usage", usage: { input: 3, output: 42, cacheRead: 10240, cacheWrite: 2048 } },
    ]);
  });

  it("the session's own pass places the breakpoints even when the provider was told to place none", async () => {
    const sent: unknown[] = [];
    const client = fakeClient(sent);
    const streamFn: StreamFn = (model, context, options) =>
      streamAnthropic(model as never, context, {
        ...options,
        cacheRetention: "none",
        apiKey: "test",
        client: client as never,
      });
    const direct: unknown[] = [];
    await drain(
      streamAnthropic(toPiModel(MODEL), CONTEXT, {
        apiKey: "test",
        cacheRetention: "none",
        client: fakeClient([]) as never,
        onPayload: (p) => void direct.push(p),
      }),
    );
    expect(anthropicBreakpoints(direct[0])).toEqual([]);
    const agent = new PiAgent(
      { sessionId: "anthropic-2", systemPrompt: "You are a careful agent.", model: MODEL, tools: [echo] },
      { streamFn },
    );
    for await (const _ of agent.send("hello")) void _;
    expect(anthropicBreakpoints(sent[0])).toEqual(["tools[0]", "system[0]", "messages[0].content[0]"]);
  });
});
