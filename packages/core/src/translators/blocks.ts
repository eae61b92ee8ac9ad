// Content blocks of one assistant message as the OpenAI translators build them from deltas:
// start/delta/end events with the block's position, its body kept for the end event.
import type { AgentEvent } from "../types.js";
import { parseToolInput } from "./json.js";

export interface StreamBlock {
  kind: "text" | "thinking" | "tool";
  index: number;
  body: string;
  id: string;
  name: string;
  closed: boolean;
}

/** Opens the next block of the message and emits its start event. */
export function openBlock(
  blocks: StreamBlock[],
  kind: StreamBlock["kind"],
  out: AgentEvent[],
  id = "",
  name = "",
): StreamBlock {
  const block: StreamBlock = { kind, index: blocks.length, body: "", id, name, closed: false };
  blocks.push(block);
  if (kind === "text") out.push({ type: "text_start", index: block.index });
  else if (kind === "thinking") out.push({ type: "thinking_start", index: block.index });
  else out.push({ type: "toolcall_start", index: block.index, id, name });
  return block;
}

export function appendDelta(block: StreamBlock, delta: string, out: AgentEvent[]): void {
  block.body += delta;
  const index = block.index;
  if (block.kind === "text") out.push({ type: "text_delta", index, delta });
  else if (block.kind === "thinking") out.push({ type: "thinking_delta", index, delta });
  else out.push({ type: "toolcall_delta", index, delta });
}

/** Emits the block's end event once; `signature` is a thinking block's opaque replay token. */
export function closeBlock(block: StreamBlock, out: AgentEvent[], signature?: string): void {
  if (block.closed) return;
  block.closed = true;
  const index = block.index;
  if (block.kind === "text") out.push({ type: "text_end", index, text: block.body });
  else if (block.kind === "tool")
    out.push({
      type: "toolcall_end",
      index,
      id: block.id,
      name: block.name,
      input: parseToolInput(block.body, {}),
    });
  else {
    const end: AgentEvent = { type: "thinking_end", index, thinking: block.body };
    if (signature) end.signature = signature;
    out.push(end);
  }
}
