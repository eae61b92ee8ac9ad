// Codex tool-like items (the harness runs them) → tool name, input and result content.
import type { ToolResultContent } from "../../../types.js";
import type { CodexItem, McpContent } from "./wire.js";

export const TOOL_ITEM_TYPES: ReadonlySet<string> = new Set([
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "web_search",
]);

/**
 * MCP tools get Claude Code's naming (mcp__server__tool) so one tool has one name across
 * harnesses (the behaviour evaluation compares tool-call sequences); others keep the item type.
 */
export function toolName(item: CodexItem): string {
  return item.type === "mcp_tool_call" ? `mcp__${item.server ?? ""}__${item.tool ?? ""}` : String(item.type);
}

export function toolInput(item: CodexItem): unknown {
  switch (item.type) {
    case "command_execution":
      return { command: item.command ?? "" };
    case "file_change":
      return { changes: item.changes ?? [] };
    case "mcp_tool_call":
      return item.arguments ?? {};
    default:
      return { query: item.query ?? "" };
  }
}

export interface ToolOutcome {
  content: ToolResultContent[];
  isError: boolean;
  details?: unknown;
}

export function toolOutcome(item: CodexItem): ToolOutcome {
  switch (item.type) {
    case "command_execution": {
      const failed =
        item.status !== "completed" || (typeof item.exit_code === "number" && item.exit_code !== 0);
      return {
        content: [{ type: "text", text: item.aggregated_output ?? "" }],
        isError: failed,
        details: { exit_code: item.exit_code ?? null, status: item.status },
      };
    }
    case "file_change": {
      const text = (item.changes ?? []).map((c) => `${c.kind ?? "?"} ${c.path ?? ""}`).join("\n");
      return {
        content: [{ type: "text", text }],
        isError: item.status === "failed",
        details: { status: item.status },
      };
    }
    case "mcp_tool_call": {
      if (item.error)
        return {
          content: [{ type: "text", text: item.error.message ?? "" }],
          isError: true,
          details: { status: item.status },
        };
      const outcome: ToolOutcome = {
        content: mcpContent(item.result?.content),
        isError: item.status === "failed",
      };
      if (item.result?.structured_content != null) outcome.details = item.result.structured_content;
      return outcome;
    }
    default: // web_search: Codex reports that it searched, not what it found
      return { content: [], isError: false, details: { action: item.action } };
  }
}

function mcpContent(content: McpContent[] | undefined): ToolResultContent[] {
  const out: ToolResultContent[] = [];
  for (const c of content ?? []) {
    if (c.type === "text") out.push({ type: "text", text: c.text ?? "" });
    else if (c.type === "image") out.push({ type: "image", mimeType: c.mimeType ?? "", data: c.data ?? "" });
    else out.push({ type: "text", text: JSON.stringify(c) }); // audio, resources: kept as JSON text
  }
  return out;
}
