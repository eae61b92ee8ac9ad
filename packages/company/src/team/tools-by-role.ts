// What each role may use, decided here and nowhere else. The CEO directs through the company tools
// only. A member gets the company tools plus its harness's file tools, confined to its workspace:
// Claude Code's Read/Write/Edit/Glob/Grep under permission rules limited to the workspace and a
// pre-tool-use check; Codex's apply_patch in its workspace-write sandbox, network off; Pi's
// read/write/edit/ls behind a path guard. The shell is off; a connector's `shell: true` turns it on
// for members only where the harness sandboxes it (Claude Code's sandbox, Codex's workspace-write),
// never on Pi, which has none. Each harness reports what it offers at every run (`harness_tools`),
// checked against this decision.
import {
  type ClaudeCodePolicy,
  type CodexPolicy,
  type PiCodingTool,
  parseClaudeCodePolicy,
  parseCodexPolicy,
  UserInputError,
  workspaceRules,
} from "@cadre/core";
import type { AgentRow, ConnectorRow } from "@cadre/store";

/** Pi's file tools for a member: each names its file, so each can be held to the workspace. */
export const PI_MEMBER_TOOLS: readonly PiCodingTool[] = Object.freeze(["read", "write", "edit", "ls"]);

/** Whether the connector turns the shell on for members (`config.shell: true`). */
function shellOn(connector: Pick<ConnectorRow, "id" | "config">): boolean {
  const value = connector.config["shell"];
  if (value === undefined) return false;
  if (typeof value !== "boolean")
    throw new UserInputError(
      `connector "${connector.id}": config.shell must be true or false; got ${JSON.stringify(value)}`,
    );
  return value;
}

/**
 * Claude Code: the CEO gets no built-in tool (whatever the connector allows); a member gets the file
 * tools limited to its workspace, plus Bash in Claude Code's sandbox when the connector turns the shell on.
 */
export function claudeCodePolicyFor(
  agent: Pick<AgentRow, "isCeo">,
  connector: Pick<ConnectorRow, "id" | "config">,
  workspace: string,
): ClaudeCodePolicy {
  const { permissionMode } = parseClaudeCodePolicy(connector.config);
  if (agent.isCeo) return { permissionMode, allowedTools: [] };
  const shell = shellOn(connector);
  return {
    permissionMode,
    allowedTools: [...workspaceRules(workspace), ...(shell ? ["Bash"] : [])],
    workspace,
    ...(shell ? { shell: true } : {}),
  };
}

/**
 * Codex: the CEO works read-only with no built-in file tool; a member gets apply_patch in the
 * workspace-write sandbox (its working directory is the workspace; network off), plus the shell,
 * in the same sandbox, when the connector turns it on.
 */
export function codexPolicyFor(
  agent: Pick<AgentRow, "isCeo">,
  connector: Pick<ConnectorRow, "id" | "config">,
): CodexPolicy {
  const configured = parseCodexPolicy(connector.config);
  if (agent.isCeo)
    return { ...configured, sandboxMode: "read-only", shell: false, webSearch: false, fileTools: false };
  return { ...configured, sandboxMode: "workspace-write", shell: shellOn(connector), fileTools: true };
}

/**
 * Pi: the CEO gets no coding tool; a member gets read/write/edit/ls rooted at its workspace, behind
 * the guard — or the fewer of them the connector names (`granted`, its `config.piTools`).
 */
export function piToolsFor(
  agent: Pick<AgentRow, "isCeo">,
  connector: Pick<ConnectorRow, "id" | "config">,
  workspace: string,
  granted?: readonly PiCodingTool[],
): { codingTools: PiCodingTool[]; workspace?: string } {
  if (agent.isCeo) return { codingTools: [] };
  const unsandboxed = shellOn(connector) || granted?.includes("bash");
  if (unsandboxed)
    throw new UserInputError(
      `connector "${connector.id}": the shell cannot be turned on for a Pi-routed connector (config.shell, or "bash" in config.piTools): Pi has no sandbox to hold it to the agent's workspace; allowed: ${PI_MEMBER_TOOLS.join(", ")}`,
    );
  const tools = granted === undefined ? PI_MEMBER_TOOLS : PI_MEMBER_TOOLS.filter((t) => granted.includes(t));
  return { codingTools: [...tools], workspace };
}
