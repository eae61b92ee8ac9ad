// Rebuilds the assistant messages of an AgentEvent stream: the `--final` shape of SPEC §4.
import type { AgentEvent, Usage } from "../types.js";

export type FinalContent =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string; redacted?: true }
  | { type: "tool_use"; id: string; name: string; input: unknown };

export interface FinalMessage {
  role: "assistant";
  content: FinalContent[];
  /** The vendor's own stop reason (null when the vendor gave none). */
  stopReason: string | null;
  usage: Usage;
}

/**
 * One message per completed model call, blocks in index order, usage summed over the call's
 * usage events. A call that ended in an error (stopReason "error") is not a final message —
 * the vendor SDKs' accumulators reject such a stream too — its events stay in the event stream.
 */
export async function* reconstructMessages(
  events: Iterable<AgentEvent> | AsyncIterable<AgentEvent>,
): AsyncGenerator<FinalMessage> {
  let blocks: (FinalContent | undefined)[] | undefined;
  let usage: Usage = zero();
  for await (const ev of events) {
    switch (ev.type) {
      case "turn_start":
        blocks = [];
        usage = zero();
        break;
      case "text_end":
        if (blocks) blocks[ev.index] = { type: "text", text: ev.text };
        break;
      case "thinking_end":
        if (blocks) blocks[ev.index] = thinking(ev.thinking, ev.signature, ev.redacted);
        break;
      case "toolcall_end":
        if (blocks) blocks[ev.index] = { type: "tool_use", id: ev.id, name: ev.name, input: ev.input };
        break;
      case "usage":
        usage.input += ev.usage.input;
        usage.output += ev.usage.output;
        usage.cacheRead += ev.usage.cacheRead;
        usage.cacheWrite += ev.usage.cacheWrite;
        break;
      case "turn_end":
        if (blocks && ev.stopReason !== "error") {
          yield {
            role: "assistant",
            content: blocks.filter((b) => b !== undefined),
            stopReason: ev.vendorStopReason ?? null,
            usage,
          };
        }
        blocks = undefined;
        usage = zero();
        break;
      default:
        break;
    }
  }
}

function thinking(text: string, signature: string | undefined, redacted: boolean | undefined): FinalContent {
  const block: FinalContent = { type: "thinking", thinking: text };
  if (signature) block.signature = signature;
  if (redacted) block.redacted = true;
  return block;
}

function zero(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}
