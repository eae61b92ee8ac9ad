import { describe, expect, it } from "vitest";
import { chunked, readFixtures } from "../../testing/translator-fixtures.js";
import { collect, ofType } from "../../testing/events.js";
import { reconstructMessages } from "../final.js";
import { translateOpenAIResponsesSse } from "./translator.js";

const fixtures = await readFixtures("openai-responses-sse");
const bytesOf = (name: string) => fixtures.find((f) => f.name === name)!.bytes;
const run = (name: string) => collect(translateOpenAIResponsesSse(chunked(bytesOf(name), 1 << 20)));

describe("openai-responses-sse translator", () => {
  it("translates a text response into the exact event sequence", async () => {
    expect(await run("text.sse")).toEqual([
      {
        type: "turn_start",
        turn: 1,
        messageId: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
        model: "gpt-4.1-2025-04-14",
      },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "Hi" },
      { type: "text_delta", index: 0, delta: " there" },
      { type: "text_delta", index: 0, delta: "! How can I help? 🌸" },
      { type: "text_end", index: 0, text: "Hi there! How can I help? 🌸" },
      { type: "usage", usage: { input: 37, output: 11, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "end_turn", vendorStopReason: "completed" },
    ]);
  });

  it("uses call_id as the tool call id and subtracts cached input tokens", async () => {
    const events = await run("function-call.sse");
    expect(ofType(events, "toolcall_end")).toEqual([
      {
        type: "toolcall_end",
        index: 0,
        id: "call_eF3kG2pQ",
        name: "get_weather",
        input: { location: "東京 🗼" },
      },
    ]);
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", usage: { input: 35, output: 23, cacheRead: 256, cacheWrite: 0 } },
    ]);
    expect(events.at(-1)).toMatchObject({ stopReason: "tool_use", vendorStopReason: "completed" });
  });

  it("makes one thinking block per reasoning item, summary parts joined, encrypted content as signature", async () => {
    const events = await run("reasoning.sse");
    expect(ofType(events, "thinking_end")).toEqual([
      {
        type: "thinking_end",
        index: 0,
        thinking: "**Planning the answer**\n\nThe user asks for a sum.\n\n**Computing**\n\n2 + 2 = 4.",
        signature: "gAAAAABo_encrypted_payload",
      },
    ]);
    expect(ofType(events, "text_end")).toEqual([{ type: "text_end", index: 1, text: "2 + 2 = 4." }]);
  });

  it("maps an incomplete response to max_tokens and keeps it as a final message", async () => {
    const events = await run("incomplete.sse");
    expect(events.at(-1)).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "max_tokens",
      vendorStopReason: "max_output_tokens",
    });
    expect(await collect(reconstructMessages(events))).toEqual([
      {
        role: "assistant",
        content: [{ type: "text", text: "Once upon a time" }],
        stopReason: "max_output_tokens",
        usage: { input: 20, output: 16, cacheRead: 0, cacheWrite: 0 },
      },
    ]);
  });

  it("turns response.failed and the error event into error events that close the turn", async () => {
    expect((await run("failed.sse")).slice(-2)).toEqual([
      { type: "error", code: "server_error", message: "The model failed to generate a response." },
      { type: "turn_end", turn: 1, stopReason: "error", vendorStopReason: "failed" },
    ]);
    expect((await run("error-event.sse")).slice(-2)).toEqual([
      { type: "error", code: "rate_limit_exceeded", message: "Rate limit reached for gpt-5." },
      { type: "turn_end", turn: 1, stopReason: "error" },
    ]);
  });

  it("carries built-in tool items and annotations as unknown events", async () => {
    const events = await run("built-in-tools.sse");
    expect(ofType(events, "unknown").map((u) => u.vendorType)).toEqual([
      "response.output_item.added",
      "response.web_search_call.in_progress",
      "response.web_search_call.searching",
      "response.web_search_call.completed",
      "response.output_item.done",
      "response.output_text.annotation.added",
    ]);
    expect(ofType(events, "text_end")).toEqual([{ type: "text_end", index: 0, text: "Found it." }]);
  });

  it("reports a cut stream as truncated, never completing the tool call", async () => {
    const events = await run("truncated.sse");
    expect(ofType(events, "error")[0]).toMatchObject({ code: "truncated" });
    expect(ofType(events, "toolcall_end")).toEqual([]);
    expect(events.at(-1)).toEqual({ type: "turn_end", turn: 1, stopReason: "error" });
  });

  it("gives the same events for one-byte chunks", async () => {
    for (const { name, bytes } of fixtures) {
      expect(await collect(translateOpenAIResponsesSse(chunked(bytes, 1))), name).toEqual(
        await collect(translateOpenAIResponsesSse(chunked(bytes, bytes.length))),
      );
    }
  });
});
