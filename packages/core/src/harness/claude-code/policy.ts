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
  /**
   * Built-in tools the session may use (e.g. "Read", or a permission rule such as "Bash(git status)").
   * They are the only built-ins Claude Code offers the model (its `tools` option, bare names: a rule
   * offers its tool and pre-approves only what the rule matches); the company tools are always offered
   * and pre-approved. None by default.
   */
  allowedTools?: readonly string[];
  /**
   * The agent's workspace, when its file tools are confined to one: every built-in file tool call is
   * checked before it runs (workspace-hook.ts), and a path outside is denied with the reason.
   */
  workspace?: string;
  /**
   * Claude Code's shell (Bash), run only inside Claude Code's sandbox (which must be available, or
   * the session fails) with no escape to an unsandboxed command. Off unless the company turns it on.
   */
  shell?: boolean;
}

/** Claude Code's file tools for a member, as permission rules limited to `workspace` (`//` = an absolute path). */
export function workspaceRules(workspace: string): string[] {
  const tree = `/${workspace.replace(/\/+$/, "")}/**`;
  return [`Read(${tree})`, `Write(${tree})`, `Edit(${tree})`, `Glob(${tree})`, `Grep(${tree})`];
}

/**
 * The built-in tools Claude Code offers (its `tools` option): the bare tool name of each allowed entry,
 * in order, once. Claude Code takes bare names only there — a rule like `Bash(git status)` is silently
 * dropped from `tools` (seen with 2.1.332) — so the rule's tool is offered and the rule itself stays a
 * permission (`allowedTools`).
 */
export function builtinToolNames(policy: ClaudeCodePolicy): string[] {
  const names: string[] = [];
  for (const entry of policy.allowedTools ?? []) {
    const name = entry.replace(/\(.*\)$/s, "");
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Why this policy cannot run here, if it cannot. */
export function claudeCodePolicyProblem(policy: ClaudeCodePolicy): string | undefined {
  // Claude Code refuses --dangerously-skip-permissions as root ("cannot be used with root/sudo privileges").
  if (policy.permissionMode === "bypassPermissions" && process.getuid?.() === 0)
    return "config.permissionMode bypassPermissions cannot run as root: Claude Code refuses to skip permissions with root privileges (use dontAsk with allowedTools)";
  return undefined;
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
