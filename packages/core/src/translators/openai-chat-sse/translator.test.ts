import { describe, expect, it } from "vitest";
import { chunked, readFixtures, splitAt } from "../../testing/translator-fixtures.js";
import { collect, ofType } from "../../testing/events.js";
import { translateOpenAIChatSse } from "./translator.js";

const fixtures = await readFixtures("openai-chat-sse");
const bytesOf = (name: string) => fixtures.find((f) => f.name === name)!.bytes;
const run = (name: string) => collect(translateOpenAIChatSse(chunked(bytesOf(name), 1 << 20)));
const runText = (text: string) => collect(translateOpenAIChatSse(chunked(new TextEncoder().encode(text), 3)));

describe("openai-chat-sse translator", () => {
  it("translates a text completion, its usage-only final chunk and [DONE]", async () => {
    expect(await run("text.sse")).toEqual([
      {
        type: "turn_start",
        turn: 1,
        messageId: "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        model: "gpt-4o-2024-08-06",
      },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "Hello" },
      { type: "text_delta", index: 0, delta: "! How can I" },
      { type: "text_delta", index: 0, delta: " assist you today?" },
      { type: "text_end", index: 0, text: "Hello! How can I assist you today?" },
      { type: "usage", usage: { input: 19, output: 10, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "end_turn", vendorStopReason: "stop" },
    ]);
  });

  it("merges interleaved parallel tool-call deltas by index, after the text block", async () => {
    const events = await run("parallel-tool-calls.sse");
    expect(ofType(events, "toolcall_start")).toEqual([
      { type: "toolcall_start", index: 1, id: "call_aaa111", name: "get_weather" },
      { type: "toolcall_start", index: 2, id: "call_bbb222", name: "get_weather" },
      { type: "toolcall_start", index: 3, id: "call_ccc333", name: "get_time" },
    ]);
    expect(ofType(events, "toolcall_end").map((e) => [e.index, e.input])).toEqual([
      [1, { city: "Paris" }],
      [2, { city: "Berlin" }],
      [3, {}],
    ]);
    expect(ofType(events, "text_end")).toEqual([
      { type: "text_end", index: 0, text: "Checking both cities." },
    ]);
    expect(events.at(-1)).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "tool_use",
      vendorStopReason: "tool_calls",
    });
  });

  it("subtracts cached tokens from prompt tokens", async () => {
    expect(ofType(await run("cached-usage.sse"), "usage")).toEqual([
      { type: "usage", usage: { input: 86, output: 300, cacheRead: 1920, cacheWrite: 0 } },
    ]);
  });

  it("keeps a refusal as text and normalises its stop reason to refusal", async () => {
    const events = await run("refusal.sse");
    expect(ofType(events, "text_end")).toEqual([
      { type: "text_end", index: 0, text: "I'm sorry, I can't help with that." },
    ]);
    expect(events.at(-1)).toMatchObject({ stopReason: "refusal", vendorStopReason: "stop" });
  });

  it("emits no usage event when the stream reported none, and maps length to max_tokens", async () => {
    const events = await run("length-no-usage.sse");
    expect(ofType(events, "usage")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ stopReason: "max_tokens", vendorStopReason: "length" });
  });

  it("gives the same events at every split point and chunk size", async () => {
    for (const { name, bytes } of fixtures) {
      const whole = await collect(translateOpenAIChatSse(chunked(bytes, bytes.length)));
      expect(await collect(translateOpenAIChatSse(chunked(bytes, 1))), name).toEqual(whole);
    }
    const bytes = bytesOf("multibyte.sse");
    const whole = await collect(translateOpenAIChatSse(chunked(bytes, bytes.length)));
    expect(ofType(whole, "toolcall_end")[0]!.input).toEqual({ city: "東京タワー 🗼" });
    for (let at = 1; at < bytes.length; at++)
      expect(await collect(translateOpenAIChatSse(splitAt(bytes, at)))).toEqual(whole);
  });

  it("reads CRLF endings and SSE comments", async () => {
    const events = await run("crlf-comments.sse");
    expect(ofType(events, "text_end")).toEqual([
      { type: "text_end", index: 0, text: "Line one\r\nline two" },
    ]);
    expect(ofType(events, "unknown")).toEqual([]);
  });

  it("turns an error chunk into an error event and closes the turn as failed", async () => {
    const events = await run("mid-stream-error.sse");
    expect(events.slice(-2)).toEqual([
      {
        type: "error",
        code: "server_error",
        message: "The server had an error while processing your request. Sorry about that!",
      },
      { type: "turn_end", turn: 1, stopReason: "error" },
    ]);
  });

  it("reports a cut stream as truncated without completing the tool call", async () => {
    const events = await run("truncated.sse");
    expect(ofType(events, "error")[0]).toMatchObject({
      code: "truncated",
      message: expect.stringContaining("before a finish_reason"),
    });
    expect(ofType(events, "toolcall_end")).toEqual([]);
    expect(events.at(-1)).toEqual({ type: "turn_end", turn: 1, stopReason: "error" });
  });

  it("carries reasoning_content from OpenAI-compatible servers as thinking, and other choices as unknown", async () => {
    const chunk = (o: object) =>
      `data: ${JSON.stringify({ id: "c1", model: "deepseek-reasoner", ...o })}\n\n`;
    const events = await runText(
      chunk({ choices: [{ index: 0, delta: { role: "assistant", reasoning_content: "Think" } }] }) +
        chunk({
          choices: [
            { index: 0, delta: { reasoning_content: "ing." } },
            { index: 1, delta: { content: "alt" } },
          ],
        }) +
        chunk({ choices: [{ index: 0, delta: { content: "Answer" }, finish_reason: "stop" }] }) +
        "data: [DONE]\n\n",
    );
    expect(ofType(events, "thinking_end")).toEqual([
      { type: "thinking_end", index: 0, thinking: "Thinking." },
    ]);
    expect(ofType(events, "text_end")).toEqual([{ type: "text_end", index: 1, text: "Answer" }]);
    expect(ofType(events, "unknown")).toEqual([
      {
        type: "unknown",
        vendor: "openai-chat",
        vendorType: "choice",
        raw: { index: 1, delta: { content: "alt" } },
      },
    ]);
  });

  it("does not split a completion at Azure's leading prompt-filter chunk with an empty id", async () => {
    const events = await runText(
      'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0}]}\n\n' +
        'data: {"id":"chatcmpl-az","model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}\n\n' +
        'data: {"id":"chatcmpl-az","model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    );
    expect(ofType(events, "error")).toEqual([]);
    expect(ofType(events, "turn_start")).toEqual([{ type: "turn_start", turn: 1 }]);
    expect(events.at(-1)).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "end_turn",
      vendorStopReason: "stop",
    });
  });

  it("names the line of a malformed chunk", async () => {
    const events = await runText('data: {"id":"c","choices":[]}\n\n\ndata: [DONE\n\n');
    expect(events.at(-1)).toEqual({
      type: "error",
      code: "malformed_input",
      message: 'line 4: expected a JSON chunk or [DONE] after "data:", got "[DONE"',
    });
  });
});
