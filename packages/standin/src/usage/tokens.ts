// Deterministic token counts: o200k_base BPE (gpt-tokenizer) over a fixed serialisation of the
// normalised request, so the same conversation counts the same on every wire and a test can
// compute the expected numbers with these very functions.
//
// A request is counted as a sequence of pieces, in the order a prompt cache sees them:
//   1. each loaded tool (deferred tools are not in the model's context) as
//      JSON {"name","description","input_schema"} (a namespaced tool's name is `NAMESPACE__NAME`);
//   2. each system block's text;
//   3. each message block: `ROLE: TEXT`, `ROLE thinking: TEXT`,
//      `ROLE tool call NAME: JSON(input)`, `tool result ID: CONTENT` (`(error)` before the colon
//      for an error result).
// Every piece is encoded on its own and the token arrays are concatenated, so a piece boundary is
// an exact token position (the Anthropic cache breakpoints sit on them).
import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import type { ReplyBlock, RequestBlock, StandinRequest, ToolOffered } from "../types.js";

export interface Piece {
  text: string;
  /** The piece ends at an Anthropic `cache_control` breakpoint. */
  breakpoint: boolean;
}

/** Text marked as special tokens (`<|endoftext|>`) is counted as plain text, never refused. */
export function tokensOf(text: string): number[] {
  return encode(text, { disallowedSpecial: new Set() });
}

export function countText(text: string): number {
  return tokensOf(text).length;
}

/** The first `n` tokens of `text`, as text (for truncation at max tokens). */
export function firstTokens(text: string, n: number): string {
  return decode(tokensOf(text).slice(0, n));
}

export function qualifiedName(tool: Pick<ToolOffered, "name" | "namespace">): string {
  return tool.namespace ? `${tool.namespace}__${tool.name}` : tool.name;
}

function blockText(role: string, block: RequestBlock): string {
  switch (block.type) {
    case "text":
      return `${role}: ${block.text}`;
    case "thinking":
      return `${role} thinking: ${block.text}`;
    case "tool_call":
      return `${role} tool call ${qualifiedName(block)}: ${JSON.stringify(block.input ?? null)}`;
    case "tool_result":
      return `tool result ${block.toolCallId}${block.isError ? " (error)" : ""}: ${block.content}`;
  }
}

/** The tool-and-system part: it identifies a conversation for the prefix cache. */
export function headPieces(request: Pick<StandinRequest, "tools" | "systemBlocks">): Piece[] {
  const tools = request.tools
    .filter((t) => !t.deferred)
    .map((t) => ({
      text: JSON.stringify({
        name: qualifiedName(t),
        description: t.description,
        input_schema: t.inputSchema,
      }),
      breakpoint: t.cacheControl === true,
    }));
  const system = request.systemBlocks.map((b) => ({ text: b.text, breakpoint: b.cacheControl === true }));
  return [...tools, ...system];
}

export function requestPieces(request: Pick<StandinRequest, "tools" | "systemBlocks" | "messages">): Piece[] {
  const messages = request.messages.flatMap((m) =>
    m.content.map((b) => ({ text: blockText(m.role, b), breakpoint: b.cacheControl === true })),
  );
  return [...headPieces(request), ...messages];
}

/** All input tokens of a request (cached or not), as the stand-in counts them. */
export function countRequestTokens(
  request: Pick<StandinRequest, "tools" | "systemBlocks" | "messages">,
): number {
  return requestPieces(request).reduce((n, p) => n + countText(p.text), 0);
}

/** Output tokens of one reply block: its text, its thinking, or its tool name plus JSON input. */
export function countReplyBlock(block: ReplyBlock): number {
  switch (block.type) {
    case "text":
      return countText(block.text);
    case "thinking":
      return countText(block.thinking);
    case "tool_call":
      return countText(block.name + JSON.stringify(block.input ?? {}));
  }
}
