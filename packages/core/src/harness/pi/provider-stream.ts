// The provider boundary of a Pi session is a pi-ai API provider, and pi-ai wants its stream at once
// (completeSimple reads the result of what streamSimple returned). The session's own chain (the
// prompt timeout, then the provider) starts asynchronously, so the boundary hands pi-ai a stream
// fed by it: every event passed on as it comes, a start that throws turned into a failed call.
import {
  type AssistantMessage,
  type AssistantMessageEventStream,
  createAssistantMessageEventStream,
  type Model,
} from "@mariozechner/pi-ai";
import { errorMessage } from "../../errors.js";
import type { Redactor } from "../../secrets/redact.js";

/**
 * Provider text enters Cadre here: an error message that echoes a configured key is
 * redacted in place, before Pi sees the message (and writes it to its session file) or any event is
 * translated from it. In place, so the message keeps its identity (the prompt timeout knows its own
 * failures by it).
 */
function redactMessage(message: AssistantMessage, redact: Redactor | undefined): void {
  if (redact && message.errorMessage !== undefined) message.errorMessage = redact.text(message.errorMessage);
}

/** The pi-ai stream a provider boundary returns at once, fed by a start that may be asynchronous. */
export function deferredStream(
  model: Model<any>,
  start: () => Promise<AssistantMessageEventStream>,
  onEnd: ((final: AssistantMessage) => void) | undefined,
  redact?: Redactor,
): AssistantMessageEventStream {
  const out = createAssistantMessageEventStream();
  void (async () => {
    let final: AssistantMessage;
    try {
      const inner = await start();
      for await (const event of inner) {
        if (event.type === "error") redactMessage(event.error, redact);
        out.push(event);
      }
      final = await inner.result();
      redactMessage(final, redact);
    } catch (error) {
      // A start that throws is a failed call, never a throw out of the stream.
      final = {
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
        errorMessage: redact ? redact.text(errorMessage(error)) : errorMessage(error),
        timestamp: Date.now(),
      };
      out.push({ type: "error", reason: "error", error: final });
    }
    out.end(final);
    onEnd?.(final);
  })();
  return out;
}
