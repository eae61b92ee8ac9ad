// How company tools are named once they travel over MCP. One server name everywhere, so one tool has
// one name across harnesses (Claude Code and the codex translator both say mcp__<server>__<tool>).

/** The MCP server name under which the company tools are served to every harness. */
export const TOOL_SERVER_NAME = "cadre";

/** The name a harness gives an MCP tool: `mcp__cadre__hire_agent`. */
export function mcpToolName(tool: string, server: string = TOOL_SERVER_NAME): string {
  return `mcp__${server}__${tool}`;
}
