// Claude Code `tool_result` blocks → the union's ToolResultContent.
import type { ToolResultContent } from "../../../types.js";
import type { ToolResultItem } from "./wire.js";

export function toolResultContent(content: string | ToolResultItem[] | undefined): ToolResultContent[] {
  if (content === undefined) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: ToolResultContent[] = [];
  for (const item of content) {
    if (item.type === "text" && typeof item.text === "string") out.push({ type: "text", text: item.text });
    else if (item.type === "image" && item.source?.type === "base64")
      out.push({ type: "image", mimeType: item.source.media_type ?? "", data: item.source.data ?? "" });
    // Other items (documents, tool references) have no ToolResultContent kind: kept as their JSON text.
    else out.push({ type: "text", text: JSON.stringify(item) });
  }
  return out;
}
