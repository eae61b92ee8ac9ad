// The pre-tool-use check of a Claude Code member: every built-in file tool call names its path, and
// one outside the agent's workspace is denied before Claude Code runs it. The permission rules say
// the same (workspace-rules in policy.ts); this check does not depend on how Claude Code matches
// them, and its reason reaches the model (and the run's events) as the tool's error result.
import type { HookCallbackMatcher, PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { outsideWorkspace } from "../workspace-guard.js";

/** Claude Code's built-in tools that touch files, and the input fields that name them. */
const FILE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ["file_path"],
  Write: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path"],
  Glob: ["path"],
  Grep: ["path"],
  LS: ["path"],
};

/** Why this call may not run, or undefined when every path it names is inside the workspace. */
export function workspaceRefusal(workspace: string, toolName: string, input: unknown): string | undefined {
  const fields = FILE_TOOLS[toolName];
  if (fields === undefined) return undefined;
  const args = (input ?? {}) as Record<string, unknown>;
  for (const field of fields) {
    const value = args[field];
    if (typeof value !== "string" || value === "") continue;
    const refused = outsideWorkspace(workspace, value);
    if (refused !== undefined) return `${toolName} ${refused}`;
  }
  return undefined;
}

/** The PreToolUse hook that holds a session's file tools to `workspace`. */
export function workspaceHook(workspace: string): HookCallbackMatcher {
  return {
    matcher: Object.keys(FILE_TOOLS).join("|"),
    hooks: [
      async (input) => {
        const call = input as PreToolUseHookInput;
        const refused = workspaceRefusal(workspace, call.tool_name, call.tool_input);
        if (refused === undefined) return { continue: true };
        return {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: refused,
          },
        };
      },
    ],
  };
}
