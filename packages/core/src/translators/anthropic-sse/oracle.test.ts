// Oracle: for every fixture, reconstructMessages equals what @anthropic-ai/sdk's MessageStream
// builds from the same bytes (parsed by the SDK's own SSE decoder), both mapped to SPEC §4.
import { MessageStream } from "@anthropic-ai/sdk/lib/MessageStream";
import type { Message } from "@anthropic-ai/sdk/resources/messages";
import { Stream } from "@anthropic-ai/sdk/streaming";
import { describe, expect, it } from "vitest";
import { chunked, readFixtures } from "../../testing/translator-fixtures.js";
import { collect } from "../../testing/events.js";
import { reconstructMessages, type FinalContent, type FinalMessage } from "../final.js";
import { translateAnthropicSse } from "./translator.js";

const fixtures = await readFixtures("anthropic-sse");

/** The SDK's accumulation of the bytes; [] when it rejects the stream (error or cut). */
async function sdkMessages(bytes: Uint8Array): Promise<Message[]> {
  const sse = Stream.fromSSEResponse(new Response(bytes), new AbortController());
  const stream = MessageStream.fromReadableStream(sse.toReadableStream());
  try {
    return [await stream.finalMessage()];
  } catch {
    return [];
  }
}

function toFinal(m: Message): FinalMessage {
  const content: FinalContent[] = [];
  for (const b of m.content) {
    if (b.type === "text") content.push({ type: "text", text: b.text });
    else if (b.type === "thinking")
      content.push(
        b.signature
          ? { type: "thinking", thinking: b.thinking, signature: b.signature }
          : { type: "thinking", thinking: b.thinking },
      );
    else if (b.type === "redacted_thinking")
      content.push({ type: "thinking", thinking: "", signature: b.data, redacted: true });
    else if (b.type === "tool_use")
      content.push({ type: "tool_use", id: b.id, name: b.name, input: b.input });
    // server tool blocks have no place in the §4 shape (carried as `unknown` events instead)
  }
  const u = m.usage;
  return {
    role: "assistant",
    content,
    stopReason: m.stop_reason,
    usage: {
      input: u.input_tokens,
      output: u.output_tokens,
      cacheRead: u.cache_read_input_tokens ?? 0,
      cacheWrite: u.cache_creation_input_tokens ?? 0,
    },
  };
}

describe("anthropic-sse oracle: @anthropic-ai/sdk MessageStream", () => {
  it.each(fixtures.map((f) => [f.name, f.bytes] as const))("%s", async (_name, bytes) => {
    const ours = await collect(reconstructMessages(translateAnthropicSse(chunked(bytes, 13))));
    const sdk = (await sdkMessages(bytes)).map(toFinal);
    expect(ours).toEqual(sdk);
  });

  it("covers complete and rejected streams alike", async () => {
    const counts = await Promise.all(fixtures.map(async (f) => (await sdkMessages(f.bytes)).length));
    expect(counts).toContain(0);
    expect(counts.filter((c) => c === 1).length).toBeGreaterThanOrEqual(9);
  });
});
