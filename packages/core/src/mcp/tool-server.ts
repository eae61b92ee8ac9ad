// ToolDefinition[] → an MCP server. The one adapter behind both transports: in-process for Claude
// Code (the Agent SDK connects it to its control channel) and stdio for `cadre mcp` (Codex, any MCP
// client). `tools/list` publishes each tool's own JSON Schema; `tools/call` runs the tool's strict
// `validate` before `execute`, and every refusal — invalid input, an unknown tool, a handler refusal or
// a handler that threw — comes back as an `isError` result with readable text, never as a protocol
// error the model cannot see.
import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition, ToolOutcome } from "../agent/tool.js";
import { errorMessage } from "../errors.js";
import { TOOL_SERVER_NAME } from "./names.js";

export interface ToolServerOptions {
  /** MCP server name (default "cadre"). */
  name?: string;
  version?: string;
  /** Shown to the model by clients that surface server instructions. */
  instructions?: string;
  /**
   * Called on every `tools/list`, before the answer is sent, with the client that asked and the tool
   * names answered: a harness that reports nothing about its MCP startup (Codex) is known to have
   * been given the tools by this record (see `stdio.ts`, CADRE_MCP_HANDSHAKE_FILE).
   */
  onListTools?: (listing: ToolListing) => void;
  /**
   * Read at each `tools/list`: a `_meta` object per tool name (e.g. whether the company's mode lets
   * the call succeed now). `_meta` is for clients and operators, never for the model, so the list
   * the model sees — names, descriptions, schemas — stays fixed (MC-3).
   */
  listMeta?: () => Promise<Readonly<Record<string, Record<string, unknown>>>>;
}

/** One `tools/list` answered: to which client, with which tools. */
export interface ToolListing {
  server: string;
  client?: { name: string; version: string };
  tools: string[];
}

/** Claude Code puts the model's tool_use id here on every tools/call. */
const TOOL_USE_ID_META = "claudecode/toolUseId";

/** The tool list exactly as `tools/list` answers it: names, descriptions and the tools' own JSON Schemas, in order. */
export function toolListOf(tools: readonly ToolDefinition[]): Tool[] {
  // A plain-JSON copy of each schema, made once per server (never per call): TypeBox schemas carry
  // symbol keys that are not part of JSON Schema.
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.label,
    description: tool.description,
    inputSchema: JSON.parse(JSON.stringify(tool.parameters)) as Tool["inputSchema"],
  }));
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  // `details` are for logs and UI, never for the model (tool.ts): they stay out of the result.
  const content = outcome.content.map((c) =>
    c.type === "text"
      ? { type: "text" as const, text: c.text }
      : { type: "image" as const, data: c.data, mimeType: c.mimeType },
  );
  return { content, isError: outcome.isError };
}

/**
 * Runs one call the way every harness path runs it: look the tool up, validate strictly, execute.
 * Never throws: whatever goes wrong becomes an error result the model can read.
 */
export async function callTool(
  tools: readonly ToolDefinition[],
  name: string,
  args: unknown,
  context: { toolCallId: string; signal: AbortSignal | undefined },
): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    return refusal(
      `Unknown tool "${name}"; this server offers: ${tools.map((t) => t.name).join(", ") || "no tools"}.`,
    );
  const checked = tool.validate(args ?? {});
  if (!checked.ok) return refusal(checked.message);
  try {
    return toCallToolResult(await tool.execute(checked.value, context));
  } catch (error) {
    return refusal(`${name} failed: ${errorMessage(error)}`);
  }
}

const RAW = new WeakMap<McpServer, Map<string | number, unknown>>();

/**
 * The SDK re-parses each request with its zod schemas before our handler sees it, and zod rebuilds
 * `arguments` key by key: a `"__proto__"` key becomes the new object's prototype instead of a field,
 * so the tool's validator could not refuse it as the unknown field it is (the HTTP routes do). The
 * arguments are therefore kept as the transport received them (JSON.parse keeps such a key as an own
 * property), by request id, for the handler to validate instead.
 */
function keepRawArguments(server: McpServer): void {
  const raw = new Map<string | number, unknown>();
  RAW.set(server, raw);
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ("method" in message && message.method === "tools/call" && "id" in message) {
        const params = message.params as { arguments?: unknown } | undefined;
        raw.set(message.id, params?.arguments);
      }
      inner?.call(transport, message, extra);
    };
  };
}

function rawArguments(server: McpServer, requestId: string | number, parsed: unknown): unknown {
  const raw = RAW.get(server);
  if (!raw?.has(requestId)) return parsed;
  const args = raw.get(requestId);
  raw.delete(requestId);
  return args;
}

/**
 * An MCP server over `tools`. The list is fixed at construction (MC-3: tools never change within a
 * session), so the server announces no `listChanged` capability.
 */
export async function createToolServer(
  tools: readonly ToolDefinition[],
  options: ToolServerOptions = {},
): Promise<McpServer> {
  // The MCP SDK is loaded on first use: it is slow to load, and most users of @cadre/core never serve MCP.
  const [{ McpServer }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const frozen = Object.freeze([...tools]);
  const list = toolListOf(frozen);
  const serverTag = randomUUID().slice(0, 8);
  const server = new McpServer(
    { name: options.name ?? TOOL_SERVER_NAME, version: options.version ?? "1.0.0" },
    {
      capabilities: { tools: { listChanged: false } },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  keepRawArguments(server);
  // The low-level handlers, not McpServer.registerTool: that one wants zod shapes and would replace
  // our JSON Schema and our validation with its own.
  const names = list.map((t) => t.name);
  const listMeta = options.listMeta;
  server.server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (options.onListTools) {
      const client = server.server.getClientVersion();
      const listing: ToolListing = { server: options.name ?? TOOL_SERVER_NAME, tools: [...names] };
      if (client) listing.client = { name: client.name, version: client.version };
      options.onListTools(listing);
    }
    if (!listMeta) return { tools: list };
    const meta = await listMeta();
    return { tools: list.map((t) => (meta[t.name] ? { ...t, _meta: meta[t.name] } : t)) };
  });
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const toolUseId = meta?.[TOOL_USE_ID_META];
    // Without the harness's id, request ids restart with every connection (a Codex turn starts a
    // new server): the server's own random tag keeps the id unique within a run, since a tool call's
    // id is its idempotency key there (a repeated id returns the first call's result).
    const toolCallId =
      typeof toolUseId === "string" && toolUseId.length > 0
        ? toolUseId
        : `mcp-${serverTag}-${String(extra.requestId)}`;
    return callTool(
      frozen,
      request.params.name,
      rawArguments(server, extra.requestId, request.params.arguments),
      {
        toolCallId,
        signal: extra.signal,
      },
    );
  });
  return server;
}
