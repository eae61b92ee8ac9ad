// Serves a tool list over stdio (`cadre mcp`): newline-delimited JSON-RPC on stdin/stdout, nothing
// else on stdout. Resolves once the client closes the connection (stdin ends).
import type { Readable, Writable } from "node:stream";
import type { ToolDefinition } from "../agent/tool.js";
import { createToolServer, type ToolServerOptions } from "./tool-server.js";

export interface StdioServeOptions extends ToolServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

export async function serveToolsOverStdio(
  tools: readonly ToolDefinition[],
  options: StdioServeOptions = {},
): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = await createToolServer(tools, options);
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    // The transport does not watch for the end of its input: a client that goes away ends the server.
    stdin.once("end", () => void server.close());
    stdin.once("close", () => void server.close());
  });
  await server.connect(transport);
  await closed;
}
