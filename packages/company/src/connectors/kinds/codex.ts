// Codex (the Codex SDK's harness): its own loop in its own process, the company tools through
// `cadre mcp --agent ID`. With config.baseUrl it runs against the connector's own model server (the
// Responses wire), which may declare its models. Each model call's usage is read from Codex's rollout
// as it is answered (the exec stream only reports a turn's), so its budget is enforced after each call.
import { basename, isAbsolute } from "node:path";
import { locateCodex } from "@cadre/core";
import { codexSessionOptions, harnessReadiness } from "../../harness-connectors.js";
import { badBaseUrl, configuredBaseUrl, type ConnectorDriver } from "./driver.js";
import { failureBoundsProblem } from "./failure-bounds.js";
import { versionTest } from "./harness-test.js";
import { compactThresholdOf, handedPrefixOf } from "./session-input.js";

/** A stdio MCP server's arguments, stable across runs: paths and generated ids are placeholders. */
function stableArgs(args: readonly string[]): string[] {
  return args.map((a) => (isAbsolute(a) ? "<path>" : /^[a-z]{2,4}_[0-9a-zA-Z]{6,}$/.test(a) ? "<id>" : a));
}

const declares = (connector: { config: Record<string, unknown> }) =>
  typeof connector.config["baseUrl"] === "string";

export const codexDriver: ConnectorDriver<"codex"> = {
  kind: "codex",
  label: "Codex (agent harness, Codex SDK)",
  defaultModels: ["gpt-5-2025-08-07", "gpt-5-mini-2025-08-07"],
  harness: "codex",
  budget: "after-each-reported-call",
  // Its own model server may serve the registry's OpenAI-compatible entries too.
  providers: (connector) => (declares(connector) ? ["openai", "openai-compatible"] : ["openai"]),
  declaresModels: declares,
  declaredModelsProblem: (connector) =>
    declares(connector)
      ? undefined
      : "declares models for a Codex model provider: give config.baseUrl too, or use the registry's OpenAI ids",
  endpoint: (connector) => configuredBaseUrl(connector)?.replace(/\/+$/, ""),
  wire: "openai-responses",
  settingsProblem: (connector) => badBaseUrl(connector) ?? failureBoundsProblem(connector),
  harnessCheck: {
    target: "Codex executable and credentials",
    check: (connector, env) => harnessReadiness("codex", connector, env),
  },
  localTest: versionTest(locateCodex),
  async createSession(input, { config, env }) {
    const { CodexAgent } = await import("@cadre/core/sessions");
    const options = {
      ...codexSessionOptions(input, env),
      ...compactThresholdOf(input.connector),
      ...(input.continuation ?? {}),
      ...handedPrefixOf(input),
    };
    const launch = () => new CodexAgent(config, options);
    if (!input.wrapHarness) return launch();
    const mcp = {
      servers: Object.entries(options.mcpServers ?? {}).map(([name, server]) => ({
        name,
        transport: "stdio",
        command: basename(server.command),
        args: stableArgs(server.args),
        enabledTools: server.enabledTools ?? null,
      })),
      policy: options.policy ?? null,
    };
    return input.wrapHarness({ kind: "codex", config, mcp, launch });
  },
  liveEval: {
    hint: "pass --base-url URL (an OpenAI Responses server, e.g. http://127.0.0.1:8080/v1) or set OPENAI_API_KEY",
    vendorUrl: "https://api.openai.com/v1",
    gatewayKeyEnv: "OPENAI_API_KEY",
  },
};
