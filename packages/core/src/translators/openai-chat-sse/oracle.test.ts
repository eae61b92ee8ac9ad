// Oracle: for every fixture, reconstructMessages equals what openai's ChatCompletionStream
// builds from the same bytes (parsed by the SDK's own SSE decoder), both mapped to SPEC §4.
import { ChatCompletionStream } from "openai/lib/ChatCompletionStream";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { Stream } from "openai/streaming";
import { describe, expect, it } from "vitest";
import { chunked, readFixtures } from "../../testing/translator-fixtures.js";
import { collect } from "../../testing/events.js";
import { reconstructMessages, type FinalContent, type FinalMessage } from "../final.js";
import { translateOpenAIChatSse } from "./translator.js";

const fixtures = await readFixtures("openai-chat-sse");

/** Every completion the SDK accumulates from the bytes; [] when it rejects the stream. */
async function sdkCompletions(bytes: Uint8Array): Promise<ChatCompletion[]> {
  const sse = Stream.fromSSEResponse(new Response(bytes), new AbortController());
  const runner = ChatCompletionStream.fromReadableStream(sse.toReadableStream());
  try {
    await runner.finalChatCompletion();
    return runner.allChatCompletions();
  } catch {
    return [];
  }
}

function toFinal(c: ChatCompletion): FinalMessage {
  const choice = c.choices[0]!;
  const m = choice.message;
  const content: FinalContent[] = [];
  if (m.content) content.push({ type: "text", text: m.content });
  if (m.refusal) content.push({ type: "text", text: m.refusal });
  for (const call of m.tool_calls ?? []) {
    if (call.type !== "function") continue;
    const args = call.function.arguments;
    content.push({
      type: "tool_use",
      id: call.id,
      name: call.function.name,
      input: args === "" ? {} : JSON.parse(args),
    });
  }
  const u = c.usage;
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    role: "assistant",
    content,
    stopReason: choice.finish_reason,
    usage: {
      input: (u?.prompt_tokens ?? 0) - cached,
      output: u?.completion_tokens ?? 0,
      cacheRead: cached,
      cacheWrite: 0,
    },
  };
}

describe("openai-chat-sse oracle: openai ChatCompletionStream", () => {
  it.each(fixtures.map((f) => [f.name, f.bytes] as const))("%s", async (_name, bytes) => {
    const ours = await collect(reconstructMessages(translateOpenAIChatSse(chunked(bytes, 11))));
    const sdk = (await sdkCompletions(bytes)).map(toFinal);
    expect(ours).toEqual(sdk);
  });

  it("covers complete and rejected streams alike", async () => {
    const counts = await Promise.all(fixtures.map(async (f) => (await sdkCompletions(f.bytes)).length));
    expect(counts).toContain(0);
    expect(counts.filter((c) => c === 1).length).toBeGreaterThanOrEqual(8);
  });
});
