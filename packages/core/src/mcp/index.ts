// Company tools over MCP: one ToolDefinition[] → MCP server adapter, in-process or over stdio.
export { mcpToolName, TOOL_SERVER_NAME } from "./names.js";
export { callTool, createToolServer, toolListOf, type ToolServerOptions } from "./tool-server.js";
export { serveToolsOverStdio, type StdioServeOptions } from "./stdio.js";
