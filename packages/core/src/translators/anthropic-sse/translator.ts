// Anthropic Messages SSE bytes → AgentEvents.
import type { AgentEvent } from "../../types.js";
import { parseTypedEvent, runSse, type ByteStream, type SseTranslator } from "../drive.js";
import { createAnthropicState, endAnthropic, translateAnthropicEvent } from "./events.js";
import type { AnthropicEvent } from "./wire.js";

export function anthropicSseTranslator(): SseTranslator {
  const state = createAnthropicState();
  return {
    event(_eventType, data, line, out) {
      const ev = parseTypedEvent(data, line, out);
      if (ev === undefined) return false;
      translateAnthropicEvent(state, ev as AnthropicEvent, out);
      return true;
    },
    end: (out, cut) => endAnthropic(state, out, cut),
  };
}

export function translateAnthropicSse(input: ByteStream): AsyncGenerator<AgentEvent> {
  return runSse(input, anthropicSseTranslator());
}
