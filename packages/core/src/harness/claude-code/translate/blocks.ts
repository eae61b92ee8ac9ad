// A complete content block from an `assistant` line → its start/delta/end events.
import type { AgentEvent } from "../../../types.js";
import type { AnthropicContentBlock } from "../../../translators/anthropic-sse/wire.js";

/** Returns false for block types the union does not model (the caller carries them as unknown). */
export function emitWholeBlock(b: AnthropicContentBlock, index: number, out: AgentEvent[]): boolean {
  switch (b.type) {
    case "text": {
      const text = b.text ?? "";
      out.push({ type: "text_start", index });
      if (text) out.push({ type: "text_delta", index, delta: text });
      out.push({ type: "text_end", index, text });
      return true;
    }
    case "thinking": {
      const thinking = b.thinking ?? "";
      out.push({ type: "thinking_start", index });
      if (thinking) out.push({ type: "thinking_delta", index, delta: thinking });
      const end: AgentEvent = { type: "thinking_end", index, thinking };
      if (b.signature) end.signature = b.signature;
      out.push(end);
      return true;
    }
    case "redacted_thinking":
      out.push({ type: "thinking_start", index, redacted: true });
      out.push({ type: "thinking_end", index, thinking: "", signature: b.data ?? "", redacted: true });
      return true;
    case "tool_use": {
      const id = b.id ?? "";
      const name = b.name ?? "";
      const input = b.input ?? {};
      out.push({ type: "toolcall_start", index, id, name });
      // One delta with the whole input, so consumers that accumulate deltas see what partials would show.
      out.push({ type: "toolcall_delta", index, delta: JSON.stringify(input) });
      out.push({ type: "toolcall_end", index, id, name, input });
      return true;
    }
    default:
      return false;
  }
}
