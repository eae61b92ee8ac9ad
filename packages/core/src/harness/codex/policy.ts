// What a Codex session may do on its own: sandbox and approval policy, decided by the company
// (connector config) and applied in code.
import type { ApprovalMode, SandboxMode } from "@openai/codex-sdk";
import { UserInputError } from "../../errors.js";

export const CODEX_SANDBOX_MODES: readonly SandboxMode[] = [
  "read-only",
  "workspace-write",
  "danger-full-access",
];
export const CODEX_APPROVAL_POLICIES: readonly ApprovalMode[] = [
  "never",
  "on-request",
  "on-failure",
  "untrusted",
];

export interface CodexPolicy {
  /** Where Codex's own commands may write. Default `read-only`: the company tools act through MCP, not through the shell. */
  sandboxMode: SandboxMode;
  /** `never` (default): Codex runs headless, nothing may wait for a person to approve. */
  approvalPolicy: ApprovalMode;
  /** Codex's own web search; off unless the company turns it on. */
  webSearch: boolean;
  /**
   * Codex's shell (exec_command, write_stdin), confined by `sandboxMode`; off unless the company turns
   * it on. Off, the model can reach no tool the sandbox governs: the company tools act through MCP.
   */
  shell: boolean;
  /**
   * Codex's file tool (apply_patch), for a member: its writes are held to the working directory (the
   * agent's workspace) by `sandboxMode` workspace-write, with the temp directories and the network
   * left out. Decided by the agent's role (company code), never by the connector's config.
   */
  fileTools?: boolean;
}

export const DEFAULT_CODEX_POLICY: Readonly<CodexPolicy> = Object.freeze({
  sandboxMode: "read-only",
  approvalPolicy: "never",
  webSearch: false,
  shell: false,
});

function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UserInputError(`${field} must be one of ${allowed.join(", ")}; got ${JSON.stringify(value)}`, {
    [field]: "invalid",
  });
}

/** The policy from a connector's config (`sandboxMode`, `approvalPolicy`, `webSearch`, `shell`), defaults for what is absent. */
export function parseCodexPolicy(config: Record<string, unknown>): CodexPolicy {
  const policy: CodexPolicy = { ...DEFAULT_CODEX_POLICY };
  if (config["sandboxMode"] !== undefined)
    policy.sandboxMode = oneOf(CODEX_SANDBOX_MODES, config["sandboxMode"], "config.sandboxMode");
  if (config["approvalPolicy"] !== undefined)
    policy.approvalPolicy = oneOf(CODEX_APPROVAL_POLICIES, config["approvalPolicy"], "config.approvalPolicy");
  if (config["webSearch"] !== undefined) {
    if (typeof config["webSearch"] !== "boolean")
      throw new UserInputError(
        `config.webSearch must be true or false; got ${JSON.stringify(config["webSearch"])}`,
        { webSearch: "invalid" },
      );
    policy.webSearch = config["webSearch"];
  }
  if (config["shell"] !== undefined) {
    if (typeof config["shell"] !== "boolean")
      throw new UserInputError(`config.shell must be true or false; got ${JSON.stringify(config["shell"])}`, {
        shell: "invalid",
      });
    policy.shell = config["shell"];
  }
  return policy;
}

/**
 * Codex's built-in tools this policy leaves on, by the names Codex gives them. Codex 0.163 offers the
 * three MCP-resource tools whenever any MCP server is configured, with no switch to remove them
 * (seen on the real binary); they read resources, and `cadre mcp` serves none.
 */
export function codexBuiltinTools(policy: CodexPolicy, mcpServers: number): string[] {
  const tools: string[] = [];
  if (policy.shell) tools.push("exec_command", "write_stdin");
  if (policy.fileTools) tools.push("apply_patch");
  if (mcpServers > 0) tools.push("list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource");
  if (policy.webSearch) tools.push("web_search");
  return tools;
}
