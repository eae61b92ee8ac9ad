// Claude Code (the Claude Agent SDK's harness): its own loop in its own process, the company tools
// as an in-process MCP server. It calls the model itself and reports each call's usage, so its
// budget is enforced after each reported call.
import { locateClaudeCode, TOOL_SERVER_NAME } from "@cadre/core";
import { claudeCodeSessionOptions, harnessReadiness } from "../../harness-connectors.js";
import { badBaseUrl, type ConnectorDriver } from "./driver.js";
import { failureBoundsProblem } from "./failure-bounds.js";
import { versionTest } from "./harness-test.js";
import { compactThresholdOf, handedPrefixOf } from "./session-input.js";

export const claudeCodeDriver: ConnectorDriver<"claude-code"> = {
  kind: "claude-code",
  label: "Claude Code (agent harness, Claude Agent SDK)",
  defaultModels: ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"],
  harness: "claude-code",
  budget: "after-each-reported-call",
  providers: () => ["anthropic"],
  declaresModels: () => false,
  endpoint: () => undefined,
  settingsProblem: (connector) => badBaseUrl(connector) ?? failureBoundsProblem(connector),
  harnessCheck: {
    target: "Claude Code executable and credentials",
    check: (connector, env) => harnessReadiness("claude-code", connector, env),
  },
  localTest: versionTest(locateClaudeCode),
  async createSession(input, { config, env }) {
    const { ClaudeCodeAgent } = await import("@cadre/core/sessions");
    const options = {
      ...claudeCodeSessionOptions(input, env),
      ...compactThresholdOf(input.connector),
      ...(input.continuation ?? {}),
      ...handedPrefixOf(input),
    };
    const launch = () => new ClaudeCodeAgent(config, options);
    if (!input.wrapHarness) return launch();
    const mcp = {
      servers: [{ name: TOOL_SERVER_NAME, transport: "in-process" }],
      policy: options.policy ?? null,
    };
    return input.wrapHarness({ kind: "claude-code", config, mcp, launch });
  },
  liveEval: {
    hint: "pass --base-url URL (an Anthropic Messages server; ANTHROPIC_BASE_URL works too, and a loopback one needs no key) or set ANTHROPIC_API_KEY",
    vendorUrl: "https://api.anthropic.com",
    baseUrlEnv: "ANTHROPIC_BASE_URL",
  },
};
