// Reading a conversation out of a normalised request: what the user said last, and which tool
// calls were made with which results. The server keeps no state; a policy knows only this.
import type { RequestBlock, StandinRequest } from "../types.js";
import { qualifiedName } from "../usage/tokens.js";

export interface ToolExchange {
  id: string;
  name: string;
  input: unknown;
  /** Absent while the client has not sent the call's result. */
  result?: { content: string; isError: boolean };
}

/** The text of the last user message (tool results excluded); "" when it has none. */
export function lastUserText(request: StandinRequest): string {
  const last = [...request.messages].reverse().find((m) => m.role === "user");
  return (last?.content ?? []).flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}

/** Every tool call of the conversation, in order, with its result when there is one. */
export function toolExchanges(request: StandinRequest): ToolExchange[] {
  const results = new Map<string, Extract<RequestBlock, { type: "tool_result" }>>();
  for (const m of request.messages)
    for (const b of m.content) if (b.type === "tool_result") results.set(b.toolCallId, b);
  const out: ToolExchange[] = [];
  for (const m of request.messages)
    for (const b of m.content) {
      if (b.type !== "tool_call") continue;
      const r = results.get(b.id);
      out.push({
        id: b.id,
        name: qualifiedName(b),
        input: b.input,
        ...(r ? { result: { content: r.content, isError: r.isError } } : {}),
      });
    }
  return out;
}
