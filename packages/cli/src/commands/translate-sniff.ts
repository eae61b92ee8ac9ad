// Which captured format an input looks like, from its first lines: so that `cadre translate` on
// the wrong `--from` says "this is not anthropic-sse (it looks like openai-chat-sse)" instead of
// the translator's own complaint about a marker it never saw. A guess for the message only; the
// translation is always the one asked for.
import type { TranslatorFormat } from "@cadre/core";

function ofJson(value: unknown, sse: boolean): TranslatorFormat | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const o = value as Record<string, unknown>;
  const type = typeof o["type"] === "string" ? o["type"] : "";
  if (sse) {
    if (o["object"] === "chat.completion.chunk" || Array.isArray(o["choices"])) return "openai-chat-sse";
    if (type.startsWith("response.")) return "openai-responses-sse";
    if (type === "message_start" || type === "ping" || type.startsWith("content_block"))
      return "anthropic-sse";
    return undefined;
  }
  if (/^(thread|turn|item)\.[a-z_]+$/.test(type)) return "codex-jsonl";
  if (type === "stream_event" || (type === "system" && o["subtype"] === "init") || "session_id" in o)
    return "claude-code-jsonl";
  if (
    ["agent_start", "agent_end", "turn_start", "turn_end", "message_update", "message_start"].includes(type)
  )
    return "pi-jsonl";
  return undefined;
}

export function sniffFormat(head: string): TranslatorFormat | undefined {
  for (const raw of head.split(/\r?\n/).slice(0, 40)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(":")) continue;
    const event = /^event:\s*(\S+)/.exec(line);
    if (event) {
      const name = event[1]!;
      if (name.startsWith("response.")) return "openai-responses-sse";
      if (name === "message_start" || name === "ping" || name.startsWith("content_block"))
        return "anthropic-sse";
      continue;
    }
    const data = /^data:\s*(.*)$/.exec(line);
    try {
      const found = ofJson(JSON.parse(data ? data[1]! : line), data !== null);
      if (found) return found;
    } catch {
      // not JSON: a [DONE] marker or a cut line; read on
    }
  }
  return undefined;
}
