// OpenAI Responses request → the normalised shape, as Codex and pi-ai send it: `instructions` and
// the system/developer message items before the first conversation item are the system text (later
// ones stay in place as user text `[developer] …`, keeping the prompt's order and cacheable prefix); function_call / custom_tool_call items are
// tool calls, their *_output items tool results; reasoning items thinking (their summaries);
// consecutive items of one role form one message. Tools: functions, `namespace` groups (Codex's
// MCP servers: `mcp__cadre` holding `hire_agent`), built-ins by type; a `defer_loading` tool counts
// as loaded once a `tool_search_output` item has brought it in.
import type { RequestBlock, RequestMessage, StandinRequest, ToolOffered } from "../../types.js";
import { qualifiedName } from "../../usage/tokens.js";
import { bodyObject, isObject, type Json, requiredString, textOf } from "../codec.js";
import { invalidRequest } from "../errors.js";
import { parseArguments, partsText } from "../openai-chat/normalise.js";

function functionTool(raw: Json, namespace?: string): ToolOffered {
  return {
    name: String(raw["name"] ?? ""),
    ...(namespace ? { namespace } : {}),
    description: String(raw["description"] ?? ""),
    inputSchema: raw["parameters"] ?? null,
    deferred: raw["defer_loading"] === true,
  };
}

function toolsOf(list: unknown): ToolOffered[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).flatMap((raw) => {
    if (raw["type"] === "function") return [functionTool(raw)];
    if (raw["type"] === "namespace" && Array.isArray(raw["tools"]))
      return raw["tools"].filter(isObject).map((t) => functionTool(t, String(raw["name"] ?? "")));
    const type = String(raw["type"] ?? "unknown");
    return [
      {
        name: String(raw["name"] ?? type),
        description: String(raw["description"] ?? ""),
        inputSchema: null,
        builtin: type,
        deferred: false,
      },
    ];
  });
}

interface Item {
  role: "user" | "assistant" | "system";
  block: RequestBlock;
}

function item(raw: Json, loaded: ToolOffered[]): Item {
  const type = raw["type"] ?? (raw["role"] ? "message" : undefined);
  const callId = String(raw["call_id"] ?? raw["id"] ?? "");
  switch (type) {
    case "message": {
      const role = raw["role"];
      const text = partsText(raw["content"]);
      if (role === "system" || role === "developer") return { role: "system", block: { type: "text", text } };
      if (role === "user" || role === "assistant") return { role, block: { type: "text", text } };
      throw invalidRequest(`input: unknown message role ${JSON.stringify(role)}`);
    }
    case "function_call":
      return {
        role: "assistant",
        block: {
          type: "tool_call",
          id: callId,
          name: String(raw["name"] ?? ""),
          ...(typeof raw["namespace"] === "string" ? { namespace: raw["namespace"] } : {}),
          input: parseArguments(raw["arguments"]),
        },
      };
    case "custom_tool_call":
    case "tool_search_call":
    case "local_shell_call":
      return {
        role: "assistant",
        block: {
          type: "tool_call",
          id: callId,
          name: String(raw["name"] ?? String(type).replace(/_call$/, "")),
          input: raw["input"] ?? raw["arguments"] ?? raw["action"] ?? {},
        },
      };
    case "reasoning": {
      const summary = Array.isArray(raw["summary"]) ? partsText(raw["summary"]) : "";
      return { role: "assistant", block: { type: "thinking", text: summary || "[reasoning]" } };
    }
    case "tool_search_output": {
      const tools = toolsOf(raw["tools"]);
      loaded.push(...tools);
      const names = tools.map(qualifiedName).join(", ");
      return {
        role: "user",
        block: {
          type: "tool_result",
          toolCallId: callId,
          content: `[tools loaded: ${names}]`,
          isError: false,
        },
      };
    }
    default:
      if (typeof type === "string" && type.endsWith("_output"))
        return {
          role: "user",
          block: {
            type: "tool_result",
            toolCallId: callId,
            content: partsText(raw["output"]),
            isError: false,
          },
        };
      return { role: "user", block: { type: "text", text: `[${textOf(type)}]` } };
  }
}

/** Body tools, with the ones a tool search loaded: loaded means not deferred, added if new. */
function offered(bodyTools: ToolOffered[], loaded: ToolOffered[]): ToolOffered[] {
  const names = new Set(loaded.map(qualifiedName));
  const tools = bodyTools.map((t) => (names.has(qualifiedName(t)) ? { ...t, deferred: false } : t));
  const known = new Set(tools.map(qualifiedName));
  return [
    ...tools,
    ...loaded.filter((t) => !known.has(qualifiedName(t))).map((t) => ({ ...t, deferred: false })),
  ];
}

export function normaliseResponses(
  raw: unknown,
  headers: Record<string, string>,
  path: string,
): StandinRequest {
  const body = bodyObject(raw);
  const model = requiredString(body, "model");
  const input = body["input"];
  if (typeof input !== "string" && !Array.isArray(input)) throw invalidRequest("input: Field required");
  const items = typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input;
  const systemBlocks: StandinRequest["systemBlocks"] = [];
  if (typeof body["instructions"] === "string" && body["instructions"])
    systemBlocks.push({ text: body["instructions"] });
  const messages: RequestMessage[] = [];
  const loaded: ToolOffered[] = [];
  for (const raw of items) {
    if (!isObject(raw)) throw invalidRequest("input: each item must be an object");
    const { role, block } = item(raw, loaded);
    if (role === "system" && messages.length === 0) {
      systemBlocks.push({ text: block.type === "text" ? block.text : "" });
      continue;
    }
    const at = role === "system" ? "user" : role;
    const placed =
      role === "system" && block.type === "text"
        ? { ...block, text: `[${String(raw["role"])}] ${block.text}` }
        : block;
    const last = messages.at(-1);
    if (last?.role === at) last.content.push(placed);
    else messages.push({ role: at, content: [placed] });
  }
  const max = body["max_output_tokens"];
  return {
    wire: "openai-responses",
    path,
    model,
    system: systemBlocks.map((b) => b.text).join("\n\n"),
    systemBlocks,
    messages,
    tools: offered(toolsOf(body["tools"]), loaded),
    maxTokens: typeof max === "number" ? max : null,
    stream: body["stream"] === true,
    body: raw,
    headers,
  };
}
