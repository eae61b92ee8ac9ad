// What a Claude Code session may do without asking: the permission policy, decided by the company
// (connector config) and applied in code, never left to the model.
import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { UserInputError } from "../../errors.js";

export const CLAUDE_CODE_PERMISSION_MODES: readonly PermissionMode[] = [
  "dontAsk",
  "default",
  "acceptEdits",
  "plan",
  "auto",
  "bypassPermissions",
];

export interface ClaudeCodePolicy {
  /**
   * Claude Code's permission mode. The default, `dontAsk`, is the safest mode in which our tools still
   * run: nothing prompts, and a tool that is not pre-approved is denied. (`plan` is stricter but runs
   * no tool at all, so the company tools could not act.)
   */
  permissionMode: PermissionMode;
  /** Built-in tools to pre-approve (e.g. "Read"). The company tools are always pre-approved. */
  allowedTools?: readonly string[];
}

export const DEFAULT_CLAUDE_CODE_POLICY: Readonly<ClaudeCodePolicy> = Object.freeze({
  permissionMode: "dontAsk",
});

/** The policy from a connector's config (`permissionMode`, `allowedTools`), defaults for what is absent. */
export function parseClaudeCodePolicy(config: Record<string, unknown>): ClaudeCodePolicy {
  const policy: ClaudeCodePolicy = { ...DEFAULT_CLAUDE_CODE_POLICY };
  const mode = config["permissionMode"];
  if (mode !== undefined) {
    if (typeof mode !== "string" || !(CLAUDE_CODE_PERMISSION_MODES as readonly string[]).includes(mode)) {
      throw new UserInputError(
        `config.permissionMode must be one of ${CLAUDE_CODE_PERMISSION_MODES.join(", ")}; got ${JSON.stringify(mode)}`,
        { permissionMode: "invalid" },
      );
    }
    policy.permissionMode = mode as PermissionMode;
  }
  const allowed = config["allowedTools"];
  if (allowed !== undefined) {
    if (
      !Array.isArray(allowed) ||
      !allowed.every((t) => typeof t === "string" && /^[A-Za-z][\w-]*(\(.*\))?$/.test(t))
    ) {
      throw new UserInputError(
        `config.allowedTools must be a list of Claude Code tool names (e.g. ["Read", "Grep"]); got ${JSON.stringify(allowed)}`,
        { allowedTools: "invalid" },
      );
    }
    policy.allowedTools = allowed as string[];
  }
  return policy;
}
