// echo: answers every call with the last user text, prefixed, or with the last tool result it was
// sent. Plumbing only (what went in comes back out); it never calls a tool.
import type { Policy } from "../types.js";
import { lastUserText, toolExchanges } from "./conversation.js";

export const echo: Policy = (request) => {
  const last = request.messages.at(-1);
  const results = last?.content.filter((b) => b.type === "tool_result") ?? [];
  if (results.length > 0) {
    const byId = new Map(toolExchanges(request).map((t) => [t.id, t.name]));
    const lines = results.map((r) =>
      r.type === "tool_result" ? `${byId.get(r.toolCallId) ?? "tool"}: ${r.content}` : "",
    );
    return { content: [{ type: "text", text: `echo (stand-in) of tool results:\n${lines.join("\n")}` }] };
  }
  return { content: [{ type: "text", text: `echo (stand-in): ${lastUserText(request)}` }] };
};
