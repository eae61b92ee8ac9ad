// Output usage and the max-tokens limit: a reply longer than the request's max tokens is cut there,
// as a real model's would be (text truncated at the limit, later blocks dropped, stop = max tokens).
import type { ReplyBlock } from "../types.js";
import { countReplyBlock, countText, firstTokens } from "./tokens.js";

export interface FittedReply {
  content: ReplyBlock[];
  /** Every output token of the content as sent. */
  output: number;
  /** Of them, thinking tokens. */
  reasoning: number;
  truncated: boolean;
}

export function fitToMaxTokens(content: ReplyBlock[], maxTokens: number | null): FittedReply {
  const kept: ReplyBlock[] = [];
  let output = 0;
  let reasoning = 0;
  for (const block of content) {
    const n = countReplyBlock(block);
    if (maxTokens !== null && output + n > maxTokens) {
      const room = maxTokens - output;
      if (block.type === "text" && room > 0) {
        const text = firstTokens(block.text, room);
        kept.push({ type: "text", text });
        output += countText(text);
      }
      return { content: kept, output, reasoning, truncated: true };
    }
    kept.push(block);
    output += n;
    if (block.type === "thinking") reasoning += n;
  }
  return { content: kept, output, reasoning, truncated: false };
}
