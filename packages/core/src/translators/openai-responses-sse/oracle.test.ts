// Oracle: for every fixture that completes, reconstructMessages equals the Response that
// openai's ResponseStream returns for the same bytes. On response.completed the SDK takes
// the server's own final snapshot, so this checks our delta accumulation against it.
// (No network: the client's fetch returns the fixture bytes.)
import OpenAI from "openai";
import type { Response as OpenAIResponse } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { chunked, readFixtures } from "../../testing/translator-fixtures.js";
import { collect } from "../../testing/events.js";
import { reconstructMessages, type FinalContent, type FinalMessage } from "../final.js";
import { translateOpenAIResponsesSse } from "./translator.js";

const fixtures = await readFixtures("openai-responses-sse");

async function sdkResponse(bytes: Uint8Array): Promise<OpenAIResponse | undefined> {
  const client = new OpenAI({
    apiKey: "oracle",
    maxRetries: 0,
    fetch: async () => new Response(bytes, { headers: { "content-type": "text/event-stream" } }),
  });
  try {
    return await client.responses.stream({ model: "oracle", input: "oracle" }).finalResponse();
  } catch {
    return undefined;
  }
}

function toFinal(r: OpenAIResponse): FinalMessage {
  const content: FinalContent[] = [];
  for (const item of r.output) {
    if (item.type === "message") {
      for (const part of item.content)
        content.push({ type: "text", text: part.type === "output_text" ? part.text : part.refusal });
    } else if (item.type === "reasoning") {
      const thinking = item.summary.map((s) => s.text).join("\n\n");
      content.push(
        item.encrypted_content
          ? { type: "thinking", thinking, signature: item.encrypted_content }
          : { type: "thinking", thinking },
      );
    } else if (item.type === "function_call") {
      content.push({
        type: "tool_use",
        id: item.call_id,
        name: item.name,
        input: JSON.parse(item.arguments),
      });
    }
  }
  const u = r.usage!;
  const cached = u.input_tokens_details.cached_tokens;
  return {
    role: "assistant",
    content,
    stopReason: r.status ?? null,
    usage: { input: u.input_tokens - cached, output: u.output_tokens, cacheRead: cached, cacheWrite: 0 },
  };
}

const completed = (
  await Promise.all(fixtures.map(async (f) => ({ ...f, sdk: await sdkResponse(f.bytes) })))
).filter((f) => f.sdk?.status === "completed");

describe("openai-responses-sse oracle: openai ResponseStream (completed responses)", () => {
  it("has completed fixtures to compare", () => expect(completed.length).toBeGreaterThanOrEqual(5));

  it.each(completed.map((f) => [f.name, f] as const))("%s", async (_name, f) => {
    const ours = await collect(reconstructMessages(translateOpenAIResponsesSse(chunked(f.bytes, 17))));
    expect(ours).toEqual([toFinal(f.sdk!)]);
  });
});
