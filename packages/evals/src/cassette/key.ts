// The key of a model request: a SHA-256 over its normalised form. What varies between two runs of
// the same conversation (timestamps, usage, vendor response ids, tool-call ids, generated record
// ids, loopback ports) is left out or replaced, so a replay finds the answer recorded for it. The
// salt separates samples: sample 3 replays sample 3's answers, not sample 0's.
import type { PiContext } from "@cadre/core";
import { hashOf } from "../data/hash.js";
import { normaliseArgs } from "../trace/normalise.js";

type Message = PiContext["messages"][number];

export interface NormalisedRequest {
  salt: string;
  model: string;
  system: string;
  tools: Array<{ name: string; description: string; parameters: unknown }>;
  messages: unknown[];
}

function normaliseMessage(message: Message, callIds: Map<string, string>): unknown {
  const callId = (id: string) => {
    if (!callIds.has(id)) callIds.set(id, `call#${callIds.size}`);
    return callIds.get(id);
  };
  switch (message.role) {
    case "user":
      return { role: "user", content: typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? { type: "text", text: c.text } : { type: "image", sha256: hashOf(c.data) })) };
    case "assistant":
      return {
        role: "assistant",
        content: message.content.map((b) =>
          b.type === "text" ? { type: "text", text: b.text } : b.type === "thinking" ? { type: "thinking", thinking: b.thinking } : { type: "toolCall", id: callId(b.id), name: b.name, arguments: b.arguments },
        ),
      };
    case "toolResult":
      return { role: "toolResult", toolCallId: callId(message.toolCallId), toolName: message.toolName, isError: message.isError, content: message.content.map((c) => (c.type === "text" ? { type: "text", text: c.text } : { type: "image", sha256: hashOf(c.data) })) };
  }
}

export function normaliseRequest(model: { provider: string; id: string }, context: PiContext, salt: string): NormalisedRequest {
  const callIds = new Map<string, string>();
  return normaliseArgs({
    salt,
    model: `${model.provider}/${model.id}`,
    system: context.systemPrompt ?? "",
    tools: (context.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    messages: context.messages.map((m) => normaliseMessage(m, callIds)),
  }) as NormalisedRequest;
}

export function requestKey(request: NormalisedRequest): string {
  return hashOf(request);
}
