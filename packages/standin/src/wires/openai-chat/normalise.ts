// OpenAI Chat Completions request → the normalised shape: the system/developer messages before the
// first conversation message become the system text (later ones stay in place, as user text
// `[developer] …`, so the prompt's order and its cacheable prefix are kept), assistant `tool_calls` tool-call blocks (arguments parsed), `tool` messages tool
// results (consecutive ones in one user message), `reasoning_content` (vLLM, DeepSeek) thinking.
import type { RequestBlock, RequestMessage, StandinRequest, ToolOffered } from "../../types.js";
import { bodyObject, isObject, requiredString, textOf } from "../codec.js";
import { invalidRequest } from "../errors.js";

/** Message content: a string, or parts (text parts kept, others named). */
export function partsText(content: unknown): string {
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) return textOf(content);
  return content
    .map((p) => (isObject(p) ? (typeof p["text"] === "string" ? p["text"] : `[${String(p["type"])}]`) : ""))
    .join("\n");
}

/** Tool-call arguments as sent: parsed JSON when they parse, else the raw string. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function assistantBlocks(m: Record<string, unknown>): RequestBlock[] {
  const blocks: RequestBlock[] = [];
  const reasoning = m["reasoning_content"] ?? m["reasoning"];
  if (typeof reasoning === "string" && reasoning) blocks.push({ type: "thinking", text: reasoning });
  const text = partsText(m["content"]);
  if (text) blocks.push({ type: "text", text });
  for (const call of Array.isArray(m["tool_calls"]) ? m["tool_calls"] : []) {
    if (!isObject(call)) continue;
    const fn = isObject(call["function"]) ? call["function"] : {};
    blocks.push({
      type: "tool_call",
      id: String(call["id"] ?? ""),
      name: String(fn["name"] ?? ""),
      input: parseArguments(fn["arguments"]),
    });
  }
  return blocks;
}

function tool(raw: unknown): ToolOffered {
  if (!isObject(raw)) throw invalidRequest("tools: each tool must be an object");
  const fn = isObject(raw["function"]) ? raw["function"] : undefined;
  if (raw["type"] === "function" && fn)
    return {
      name: String(fn["name"] ?? ""),
      description: String(fn["description"] ?? ""),
      inputSchema: fn["parameters"] ?? null,
      deferred: false,
    };
  const type = String(raw["type"] ?? "unknown");
  return {
    name: String(raw["name"] ?? type),
    description: "",
    inputSchema: null,
    builtin: type,
    deferred: false,
  };
}

export function normaliseChat(raw: unknown, headers: Record<string, string>, path: string): StandinRequest {
  const body = bodyObject(raw);
  const model = requiredString(body, "model");
  if (!Array.isArray(body["messages"]) || body["messages"].length === 0)
    throw invalidRequest("'messages' is a required property (a non-empty list)");
  const systemBlocks: StandinRequest["systemBlocks"] = [];
  const messages: RequestMessage[] = [];
  for (const m of body["messages"]) {
    if (!isObject(m)) throw invalidRequest("messages: each message must be an object");
    const role = m["role"];
    if (role === "system" || role === "developer") {
      const text = partsText(m["content"]);
      if (messages.length === 0) systemBlocks.push({ text });
      else messages.push({ role: "user", content: [{ type: "text", text: `[${role}] ${text}` }] });
    } else if (role === "user")
      messages.push({ role: "user", content: [{ type: "text", text: partsText(m["content"]) }] });
    else if (role === "assistant") messages.push({ role: "assistant", content: assistantBlocks(m) });
    else if (role === "tool") {
      const result: RequestBlock = {
        type: "tool_result",
        toolCallId: String(m["tool_call_id"] ?? ""),
        content: partsText(m["content"]),
        isError: false,
      };
      const last = messages.at(-1);
      if (last?.role === "user" && last.content.every((b) => b.type === "tool_result"))
        last.content.push(result);
      else messages.push({ role: "user", content: [result] });
    } else throw invalidRequest(`messages: unknown role ${JSON.stringify(role)}`);
  }
  const max = body["max_completion_tokens"] ?? body["max_tokens"];
  return {
    wire: "openai-chat",
    path,
    model,
    system: systemBlocks.map((b) => b.text).join("\n\n"),
    systemBlocks,
    messages,
    tools: Array.isArray(body["tools"]) ? body["tools"].map(tool) : [],
    maxTokens: typeof max === "number" ? max : null,
    stream: body["stream"] === true,
    body: raw,
    headers,
  };
}
