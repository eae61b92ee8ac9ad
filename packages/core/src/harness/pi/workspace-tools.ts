// Pi's file tools for a member: read, write, edit and ls rooted at the agent's workspace, each behind
// the workspace guard. A path outside it is refused before Pi touches the disk, as an error tool
// result the model reads (and the run's events show); the tool otherwise is Pi's own. They are
// handed to Pi under Pi's own names, so they take the place of its unguarded built-ins.
import type { ToolDefinition as PiToolDefinition } from "@mariozechner/pi-coding-agent";
import { outsideWorkspace } from "../workspace-guard.js";
import type { PiCodingTool, PiSdk } from "./sdk.js";

/** The coding tools a workspace can guard: each names the file it touches in `path`. */
export const GUARDED_PI_TOOLS: readonly PiCodingTool[] = Object.freeze(["read", "write", "edit", "ls"]);

function definitionOf(sdk: PiSdk, name: PiCodingTool, workspace: string): PiToolDefinition<any, any> {
  switch (name) {
    case "read":
      return sdk.createReadToolDefinition(workspace);
    case "write":
      return sdk.createWriteToolDefinition(workspace);
    case "edit":
      return sdk.createEditToolDefinition(workspace);
    case "ls":
      return sdk.createLsToolDefinition(workspace);
    default:
      throw new Error(`Pi's ${name} tool cannot be confined to a workspace`);
  }
}

/** Pi's `names` tools rooted at `workspace`, refusing any path that leaves it. */
export function workspaceTools(
  sdk: PiSdk,
  workspace: string,
  names: readonly PiCodingTool[],
): PiToolDefinition<any, any>[] {
  return names.map((name) => {
    const tool = definitionOf(sdk, name, workspace);
    const execute = tool.execute.bind(tool);
    return {
      ...tool,
      execute: (toolCallId, params, signal, onUpdate, ctx) => {
        const path = (params as { path?: unknown }).path;
        // ls without a path lists the workspace itself.
        const refused = outsideWorkspace(workspace, typeof path === "string" ? path : ".");
        if (refused !== undefined) throw new Error(refused);
        return execute(toolCallId, params, signal, onUpdate, ctx);
      },
    };
  });
}
