// Anthropic Messages request → the normalised shape. Handles what Claude Code and pi-ai send:
// system as a string or text blocks, content as a string or blocks (text, thinking, tool_use,
// tool_result with text or `tool_reference` parts), tools with `defer_loading`, `cache_control`.
import type { RequestBlock, RequestMessage, StandinRequest, ToolOffered } from "../../types.js";
import { bodyObject, isObject, type Json, requiredString, textOf } from "../codec.js";
import { invalidRequest } from "../errors.js";

const cached = (b: Json) => (isObject(b["cache_control"]) ? { cacheControl: true } : {});

/** A tool_result's content as text, collecting the tools a tool search loaded (`tool_reference`). */
function resultText(content: unknown, loaded: Set<string>): string {
  if (!Array.isArray(content)) return textOf(content ?? "");
  const parts: string[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part["type"] === "text") parts.push(String(part["text"] ?? ""));
    else if (part["type"] === "tool_reference") {
      loaded.add(String(part["tool_name"]));
      parts.push(`[tool loaded: ${String(part["tool_name"])}]`);
    } else parts.push(`[${String(part["type"])}]`);
  }
  return parts.join("\n");
}

function block(raw: unknown, loaded: Set<string>): RequestBlock {
  if (typeof raw === "string") return { type: "text", text: raw };
  if (!isObject(raw)) throw invalidRequest("messages: each content block must be an object");
  const c = cached(raw);
  switch (raw["type"]) {
    case "text":
      return { type: "text", text: String(raw["text"] ?? ""), ...c };
    case "thinking":
      return { type: "thinking", text: String(raw["thinking"] ?? ""), ...c };
    case "redacted_thinking":
      return { type: "thinking", text: "[redacted]", ...c };
    case "tool_use":
    case "server_tool_use":
      return {
        type: "tool_call",
        id: String(raw["id"] ?? ""),
        name: String(raw["name"] ?? ""),
        input: raw["input"] ?? {},
        ...c,
      };
    case "tool_result":
      return {
        type: "tool_result",
        toolCallId: String(raw["tool_use_id"] ?? ""),
        content: resultText(raw["content"], loaded),
        isError: raw["is_error"] === true,
        ...c,
      };
    default:
      return { type: "text", text: `[${String(raw["type"])}]`, ...c };
  }
}

function message(raw: unknown, loaded: Set<string>): RequestMessage {
  if (!isObject(raw) || (raw["role"] !== "user" && raw["role"] !== "assistant"))
    throw invalidRequest("messages: each message needs a role of user or assistant");
  const content = raw["content"];
  const blocks = Array.isArray(content)
    ? content.map((b) => block(b, loaded))
    : [block(String(content), loaded)];
  return { role: raw["role"], content: blocks };
}

function tool(raw: unknown, loaded: Set<string>): ToolOffered {
  if (!isObject(raw)) throw invalidRequest("tools: each tool must be an object");
  const name = String(raw["name"] ?? "");
  const builtin = typeof raw["type"] === "string" && raw["type"] !== "custom" ? raw["type"] : undefined;
  return {
    name,
    description: String(raw["description"] ?? ""),
    inputSchema: raw["input_schema"] ?? null,
    ...(builtin ? { builtin } : {}),
    deferred: raw["defer_loading"] === true && !loaded.has(name),
    ...cached(raw),
  };
}

function systemBlocks(system: unknown): StandinRequest["systemBlocks"] {
  if (system === undefined || system === null) return [];
  if (typeof system === "string") return [{ text: system }];
  if (!Array.isArray(system)) throw invalidRequest("system: must be a string or a list of text blocks");
  return system.filter(isObject).map((b) => ({ text: String(b["text"] ?? ""), ...cached(b) }));
}

/** `countOnly`: the count_tokens endpoint, which takes no max_tokens. */
export function normaliseAnthropic(
  raw: unknown,
  headers: Record<string, string>,
  path: string,
  countOnly = false,
): StandinRequest {
  const body = bodyObject(raw);
  const model = requiredString(body, "model");
  if (!Array.isArray(body["messages"])) throw invalidRequest("messages: Field required");
  const maxTokens = body["max_tokens"];
  if (!countOnly && (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1))
    throw invalidRequest("max_tokens: Field required (a positive integer)");
  // Messages first: a tool_reference in any tool result loads that deferred tool.
  const loaded = new Set<string>();
  const messages = body["messages"].map((m) => message(m, loaded));
  const tools = Array.isArray(body["tools"]) ? body["tools"].map((t) => tool(t, loaded)) : [];
  const blocks = systemBlocks(body["system"]);
  return {
    wire: "anthropic",
    path,
    model,
    system: blocks.map((b) => b.text).join("\n\n"),
    systemBlocks: blocks,
    messages,
    tools,
    maxTokens: typeof maxTokens === "number" ? maxTokens : null,
    stream: body["stream"] === true,
    body: raw,
    headers,
  };
}
