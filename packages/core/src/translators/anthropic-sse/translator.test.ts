import { describe, expect, it } from "vitest";
import { chunked, readFixtures, splitAt } from "../../testing/translator-fixtures.js";
import { collect, ofType } from "../../testing/events.js";
import { translateAnthropicSse } from "./translator.js";

const fixtures = await readFixtures("anthropic-sse");
const bytesOf = (name: string) => fixtures.find((f) => f.name === name)!.bytes;
const run = (name: string, size = 1 << 20) => collect(translateAnthropicSse(chunked(bytesOf(name), size)));

describe("anthropic-sse translator", () => {
  it("translates a text message into the exact event sequence", async () => {
    expect(await run("text.sse")).toEqual([
      {
        type: "turn_start",
        turn: 1,
        messageId: "msg_01XFDUDYJgAACzvnptvVoYEL",
        model: "claude-sonnet-4-5-20250929",
      },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "Hello" },
      { type: "text_delta", index: 0, delta: "! How can I help you today?" },
      { type: "text_end", index: 0, text: "Hello! How can I help you today?" },
      { type: "usage", usage: { input: 25, output: 15, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "end_turn", vendorStopReason: "end_turn" },
    ]);
  });

  it("accumulates tool input across pings and an empty first input_json_delta", async () => {
    const events = await run("tool-use.sse");
    const deltas = ofType(events, "toolcall_delta");
    expect(deltas.every((d) => d.delta.length > 0)).toBe(true);
    expect(deltas.map((d) => d.delta).join("")).toBe(
      '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
    );
    expect(ofType(events, "toolcall_start")).toEqual([
      { type: "toolcall_start", index: 1, id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather" },
    ]);
    expect(ofType(events, "toolcall_end")[0]!.input).toEqual({
      location: "San Francisco, CA",
      unit: "fahrenheit",
    });
    expect(events.at(-1)).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "tool_use",
      vendorStopReason: "tool_use",
    });
  });

  it("gives the same events whatever the chunk boundaries, including inside multi-byte characters", async () => {
    for (const { name, bytes } of fixtures) {
      const whole = await collect(translateAnthropicSse(chunked(bytes, bytes.length)));
      expect(await collect(translateAnthropicSse(chunked(bytes, 1))), name).toEqual(whole);
      expect(await collect(translateAnthropicSse(chunked(bytes, 7))), name).toEqual(whole);
    }
  });

  it("decodes tool input split at every byte offset of the multi-byte fixture", async () => {
    const bytes = bytesOf("multibyte.sse");
    const expected = await collect(translateAnthropicSse(chunked(bytes, bytes.length)));
    const end = ofType(expected, "toolcall_end")[0]!;
    expect(end.input).toEqual({ city: "東京タワー 🗼", note: "naïve café — ✓" });
    for (let at = 1; at < bytes.length; at++) {
      expect(await collect(translateAnthropicSse(splitAt(bytes, at)))).toEqual(expected);
    }
  });

  it("reads CRLF endings, comments, pings and a data field split over two lines", async () => {
    const events = await run("crlf-comments.sse");
    expect(ofType(events, "text_end")).toEqual([
      { type: "text_end", index: 0, text: "Line one\r\nand two — done" },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "stop_sequence" });
    expect(ofType(events, "unknown")).toEqual([]);
  });

  it("emits one usage event with the final cumulative values, never adding message_start's", async () => {
    expect(ofType(await run("cache-usage.sse"), "usage")).toEqual([
      { type: "usage", usage: { input: 3, output: 42, cacheRead: 10240, cacheWrite: 2048 } },
    ]);
  });

  it("carries thinking with its signature and redacted thinking with its data", async () => {
    const events = await run("redacted-thinking.sse");
    expect(ofType(events, "thinking_start")).toEqual([
      { type: "thinking_start", index: 0 },
      { type: "thinking_start", index: 1, redacted: true },
    ]);
    expect(ofType(events, "thinking_end")).toEqual([
      {
        type: "thinking_end",
        index: 0,
        thinking: "The user wants a haiku.",
        signature: "ErUBCkYIBBgCIkBsig",
      },
      {
        type: "thinking_end",
        index: 1,
        thinking: "",
        signature: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP",
        redacted: true,
      },
    ]);
    expect(events.at(-1)).toMatchObject({ stopReason: "max_tokens", vendorStopReason: "max_tokens" });
  });

  it("carries citations_delta, server tool blocks and unknown event types as unknown events", async () => {
    const citations = ofType(await run("citations.sse"), "unknown");
    expect(citations.map((u) => (u.raw as { delta: { type: string } }).delta.type)).toEqual([
      "citations_delta",
    ]);
    const events = await run("unknown-types.sse");
    expect(ofType(events, "unknown").map((u) => u.vendorType)).toEqual([
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_stop",
      "content_block_hint",
    ]);
    expect(ofType(events, "toolcall_start")).toEqual([]);
    expect(ofType(events, "text_end")).toEqual([{ type: "text_end", index: 2, text: "Found it." }]);
  });

  it("turns a mid-stream error into an error event and closes the call without fake block ends", async () => {
    const events = await run("mid-stream-error.sse");
    expect(events.slice(-3)).toEqual([
      { type: "error", code: "overloaded_error", message: "Overloaded", retryable: true },
      { type: "usage", usage: { input: 20, output: 1, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "error" },
    ]);
    expect(ofType(events, "text_end")).toEqual([]);
  });

  it("reports a stream cut before message_stop as a truncated error, with no tool call end", async () => {
    const events = await run("truncated.sse");
    const error = ofType(events, "error")[0]!;
    expect(error.code).toBe("truncated");
    expect(error.message).toMatch(
      /^line 11: the last event was not closed by a blank line.*before message_stop$/,
    );
    expect(ofType(events, "toolcall_end")).toEqual([]);
    expect(events.at(-1)).toEqual({ type: "turn_end", turn: 1, stopReason: "error" });
  });

  it("never throws when the input stream itself fails", async () => {
    async function* failing() {
      yield bytesOf("text.sse").subarray(0, 200);
      throw new Error("stdin closed");
    }
    const events = await collect(translateAnthropicSse(failing()));
    expect(events.at(-1)).toEqual({ type: "error", code: "stream_failure", message: "stdin closed" });
  });

  it("stops at a malformed data line, naming its line number, after emitting what came before", async () => {
    const input =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{}}}\n\nevent: ping\ndata: {not json\n\n';
    const events = await collect(translateAnthropicSse(chunked(new TextEncoder().encode(input), 5)));
    expect(events).toEqual([
      { type: "turn_start", turn: 1, messageId: "m" },
      {
        type: "error",
        code: "malformed_input",
        message: 'line 5: expected a JSON object with a "type" field after "data:", got "{not json"',
      },
    ]);
  });

  it("fails a message interrupted by the next message_start, then translates the next one", async () => {
    const start = (id: string) =>
      `event: message_start\ndata: {"type":"message_start","message":{"id":"${id}","usage":{"input_tokens":1}}}\n\n`;
    const text = new TextDecoder().decode(bytesOf("text.sse"));
    const events = await collect(
      translateAnthropicSse(chunked(new TextEncoder().encode(start("m1") + text), 64)),
    );
    expect(events.slice(0, 4)).toEqual([
      { type: "turn_start", turn: 1, messageId: "m1" },
      {
        type: "error",
        code: "truncated",
        retryable: false,
        message: "message_start came before message_stop: the previous call was cut",
      },
      { type: "usage", usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "error" },
    ]);
    expect(events.at(-1)).toEqual({
      type: "turn_end",
      turn: 2,
      stopReason: "end_turn",
      vendorStopReason: "end_turn",
    });
  });

  it("reports an empty stream as truncated instead of hanging or staying silent", async () => {
    expect(await collect(translateAnthropicSse(chunked(new Uint8Array(0), 1)))).toEqual([
      {
        type: "error",
        code: "truncated",
        message: "the stream ended before message_start",
        retryable: false,
      },
    ]);
  });
});
