// Company tools over MCP: one ToolDefinition[] → MCP server adapter, in-process or over stdio.
export { mcpToolName, TOOL_SERVER_NAME } from "./names.js";
export {
  callTool,
  createToolServer,
  toolListOf,
  type ToolListing,
  type ToolServerOptions,
} from "./tool-server.js";
export { MCP_HANDSHAKE_FILE_ENV, serveToolsOverStdio, type StdioServeOptions } from "./stdio.js";
