// The per-run `--config` overrides the Codex adapter hands Codex (through the SDK's `config`, which
// the SDK flattens into `--config key=TOML`). What the company decided, and nothing else
// (every switch below was seen to do what it says on the real Codex 0.163 against a stand-in):
//  - the Cadre prompt after Codex's own instructions (`developer_instructions`, MC-3);
//  - the company tools as MCP servers that are `required` (Codex waits for their tools/list before
//    its first model request, and fails to start, saying which server, when one does not come up:
//    without it Codex races a slow `cadre mcp` and sends its first request without the tools), with
//    only the session's tools enabled and pre-approved (headless);
//  - every built-in the policy does not allow switched off: shell (exec_command, write_stdin), the
//    sub-agent tools, goals, view_image, request_user_input; apply_patch and the deferral of MCP tools
//    behind tool_search are properties of the model's catalog entry (model-catalog.ts); web search is
//    a thread option. What cannot be switched off: the three MCP-resource tools (policy.ts);
//  - no plugin sync, no analytics, no skills instructions: nothing but the model server is contacted;
//  - a connector's own model server as Codex's own provider (`model_providers`, Responses wire), its
//    key by environment-variable name (Codex ignores OPENAI_BASE_URL), its retries bounded.
import type { CodexOptions } from "@openai/codex-sdk";
import { MCP_HANDSHAKE_FILE_ENV } from "../../mcp/stdio.js";

type CodexConfig = NonNullable<CodexOptions["config"]>;

/** A stdio MCP server Codex starts for the session. */
export interface CodexMcpServer {
  command: string;
  args: readonly string[];
  /** Names of variables Codex passes on from its environment (values never go on a command line). */
  envVars?: readonly string[];
  /** Tools Codex may use from this server; default every tool of the session's frozen list. */
  enabledTools?: readonly string[];
  /** How long Codex waits for the server to start. Default 30 s (Codex's own default is 10 s; a cold `cadre` start can take seconds). */
  startupTimeoutSec?: number;
}

/** A model server of the connector's own, reached as a Codex model provider over the Responses wire. */
export interface CodexProvider {
  /** Base URL of the Responses API (Codex appends /responses), e.g. http://127.0.0.1:8080/v1. */
  baseUrl: string;
  /** The environment variable holding its key; none: Codex sends no Authorization header. */
  apiKeyEnv?: string;
  /** Shown by Codex in its messages. */
  name?: string;
  /**
   * How often Codex retries a failed request to it and reconnects a dropped stream. Default
   * 2 (Codex's own: 4 and 5, with growing waits): a provider that answers 500 or 429 forever ends the
   * wake within seconds, with its answer, instead of after minutes of silence.
   */
  maxRetries?: number;
}

/** Cadre's bound on Codex's retries of its model provider. */
export const DEFAULT_CODEX_RETRIES = 2;

/** The provider id under which a connector's model server is registered with Codex. */
export const CODEX_PROVIDER_ID = "cadre";

export interface CodexConfigInput {
  systemPrompt: string;
  /** The session's frozen tool names (enabled on every server unless it names its own). */
  toolNames: readonly string[];
  mcpServers: Readonly<Record<string, CodexMcpServer>>;
  shell: boolean;
  /**
   * workspace-write holds writes to the working directory only: Codex otherwise also lets them reach
   * /tmp and $TMPDIR, which are outside the agent's workspace.
   */
  confined?: boolean;
  provider?: CodexProvider;
  /** A model catalog file with the session's model in it (model-catalog.ts). */
  modelCatalog?: string;
  /** Where `cadre mcp` records its tools/list answers (stdio.ts), set in each server's environment. */
  handshakeFile?: string;
}

export function codexConfig(input: CodexConfigInput): CodexConfig {
  const mcp: Record<string, CodexConfig> = {};
  for (const [name, server] of Object.entries(input.mcpServers)) {
    const entry: CodexConfig = {
      command: server.command,
      args: [...server.args],
      // Codex waits for it (tools/list answered) before the first model request, or fails to start.
      required: true,
      // The session's tool list is frozen (MC-3): only those tools, whatever else a server offers.
      enabled_tools: [...(server.enabledTools ?? input.toolNames)],
      // Headless: the company tools must run without a person approving each call.
      default_tools_approval_mode: "approve",
      startup_timeout_sec: server.startupTimeoutSec ?? 30,
    };
    if (server.envVars && server.envVars.length > 0) entry["env_vars"] = [...server.envVars];
    if (input.handshakeFile !== undefined) entry["env"] = { [MCP_HANDSHAKE_FILE_ENV]: input.handshakeFile };
    mcp[name] = entry;
  }
  const out: CodexConfig = {
    developer_instructions: input.systemPrompt,
    features: {
      shell_tool: input.shell,
      multi_agent: false,
      goals: false,
      view_image: false,
      code_mode: false,
      plugins: false,
    },
    tools: { experimental_request_user_input: { enabled: false } },
    skills: { include_instructions: false, bundled: { enabled: false } },
    analytics: { enabled: false },
  };
  if (input.confined)
    out["sandbox_workspace_write"] = {
      exclude_tmpdir_env_var: true,
      exclude_slash_tmp: true,
    };
  if (Object.keys(mcp).length > 0) out["mcp_servers"] = mcp;
  if (input.modelCatalog !== undefined) out["model_catalog_json"] = input.modelCatalog;
  if (input.provider !== undefined) {
    const provider: CodexConfig = {
      name: input.provider.name ?? "Cadre connector model server",
      base_url: input.provider.baseUrl,
      wire_api: "responses",
    };
    if (input.provider.apiKeyEnv !== undefined) provider["env_key"] = input.provider.apiKeyEnv;
    const retries = input.provider.maxRetries ?? DEFAULT_CODEX_RETRIES;
    provider["request_max_retries"] = retries;
    provider["stream_max_retries"] = retries;
    out["model_provider"] = CODEX_PROVIDER_ID;
    out["model_providers"] = { [CODEX_PROVIDER_ID]: provider };
  }
  return out;
}
