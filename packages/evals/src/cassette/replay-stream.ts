// Plays a recorded assistant message back through pi-ai's event protocol, one delta per block.
import {
  type AssistantMessage,
  type AssistantMessageEventStream,
  createAssistantMessageEventStream,
} from "@cadre/core";

export function replayMessage(message: AssistantMessage): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  queueMicrotask(() => {
    const partial: AssistantMessage = { ...message, content: [] };
    stream.push({ type: "start", partial });
    message.content.forEach((block, i) => {
      partial.content.push(block);
      if (block.type === "text") {
        stream.push({ type: "text_start", contentIndex: i, partial });
        stream.push({ type: "text_delta", contentIndex: i, delta: block.text, partial });
        stream.push({ type: "text_end", contentIndex: i, content: block.text, partial });
      } else if (block.type === "thinking") {
        stream.push({ type: "thinking_start", contentIndex: i, partial });
        stream.push({ type: "thinking_delta", contentIndex: i, delta: block.thinking, partial });
        stream.push({ type: "thinking_end", contentIndex: i, content: block.thinking, partial });
      } else {
        stream.push({ type: "toolcall_start", contentIndex: i, partial });
        stream.push({
          type: "toolcall_delta",
          contentIndex: i,
          delta: JSON.stringify(block.arguments),
          partial,
        });
        stream.push({ type: "toolcall_end", contentIndex: i, toolCall: block, partial });
      }
    });
    if (message.stopReason === "error" || message.stopReason === "aborted")
      stream.push({ type: "error", reason: message.stopReason, error: message });
    else stream.push({ type: "done", reason: message.stopReason, message });
    stream.end(message);
  });
  return stream;
}

/** A failed model call, the way pi-ai reports one (the loop ends the turn with this error). */
export function failedCall(
  model: { api: string; provider: string; id: string },
  errorMessage: string,
): AssistantMessageEventStream {
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "error",
    errorMessage,
    timestamp: Date.now(),
  };
  return replayMessage(message);
}
