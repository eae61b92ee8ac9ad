// Serves a tool list over stdio (`cadre mcp`): newline-delimited JSON-RPC on stdin/stdout, nothing
// else on stdout. Resolves once the client closes the connection (stdin ends).
//
// The handshake record: a harness that starts this server itself may say nothing about it (Codex's
// exec stream has no MCP startup event). When CADRE_MCP_HANDSHAKE_FILE names a file (the
// Codex adapter sets it in the server's environment), every `tools/list` answer appends one JSON line
// there — the client that asked and the tool names answered — synchronously, before the answer goes
// out, so the record exists by the time the client has the tools.
import { appendFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { ToolDefinition } from "../agent/tool.js";
import { createToolServer, type ToolListing, type ToolServerOptions } from "./tool-server.js";

/** The environment variable naming the handshake record file (one JSON line per `tools/list` answered). */
export const MCP_HANDSHAKE_FILE_ENV = "CADRE_MCP_HANDSHAKE_FILE";

export interface StdioServeOptions extends ToolServerOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Append each `tools/list` answer here (default: $CADRE_MCP_HANDSHAKE_FILE, if set). */
  handshakeFile?: string;
}

export async function serveToolsOverStdio(
  tools: readonly ToolDefinition[],
  options: StdioServeOptions = {},
): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const handshakeFile = options.handshakeFile ?? (process.env[MCP_HANDSHAKE_FILE_ENV] || undefined);
  const onListTools =
    handshakeFile === undefined
      ? options.onListTools
      : (listing: ToolListing) => {
          options.onListTools?.(listing);
          try {
            appendFileSync(handshakeFile, `${JSON.stringify({ ...listing, pid: process.pid })}\n`);
          } catch {
            // A record that cannot be written is a missing record: the harness then says it has none.
          }
        };
  const server = await createToolServer(tools, { ...options, ...(onListTools ? { onListTools } : {}) });
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
