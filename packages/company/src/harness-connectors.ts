// The `claude-code` and `codex` connectors: agent harnesses that run their own loop in their own
// process. Readiness finds the executable and the credentials (and checks the policy in the
// connector's config) and names everything that is missing; the session options say how the
// harness reaches the company tools and what it may do.
import { basename } from "node:path";
import {
  type ClaudeCodeAgentOptions,
  claudeCodeCredentials,
  claudeCodePolicyProblem,
  type CodexAgentOptions,
  codexCredentials,
  type CodexProvider,
  type CredentialCheck,
  errorMessage,
  locateClaudeCode,
  locateCodex,
  type Located,
  parseClaudeCodePolicy,
  parseCodexPolicy,
  TOOL_SERVER_NAME,
  UserInputError,
} from "@cadre/core";
import type { OwnLoopHarness } from "@cadre/model";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import { failureBoundsOf } from "./connectors/kinds/failure-bounds.js";
import { claudeCodePolicyFor, codexPolicyFor } from "./team/tools-by-role.js";
import { workspaceOf } from "./team/workspace.js";

export interface HarnessReadiness {
  ready: boolean;
  missing?: string;
}

function configuredPath(connector: Pick<ConnectorRow, "config">): string | undefined | Error {
  const value = connector.config["executablePath"];
  if (value === undefined) return undefined;
  return typeof value === "string" && value.length > 0
    ? value
    : new Error("config.executablePath must be a path to the executable");
}

function locate(
  kind: OwnLoopHarness,
  connector: Pick<ConnectorRow, "config">,
  env: NodeJS.ProcessEnv,
): Located {
  const path = configuredPath(connector);
  if (path instanceof Error) return { found: false, missing: path.message };
  return kind === "claude-code" ? locateClaudeCode(path, env) : locateCodex(path, env);
}

/**
 * A codex connector's own model server (`config.baseUrl`, the Responses wire; `config.apiKeyEnv`
 * names the variable holding its key — never the key itself), handed to Codex as its own model
 * provider. Undefined when the connector names none (Codex's own provider then). Throws a
 * UserInputError naming the field when the config is not usable.
 */
export function codexProviderOf(connector: Pick<ConnectorRow, "config">): CodexProvider | undefined {
  const baseUrl = connector.config["baseUrl"];
  const keyEnv = connector.config["apiKeyEnv"];
  if (baseUrl === undefined) {
    if (keyEnv !== undefined)
      throw new UserInputError(
        "config.apiKeyEnv needs config.baseUrl: it names the key of the connector's own model server",
        {
          apiKeyEnv: "needs baseUrl",
        },
      );
    return undefined;
  }
  if (typeof baseUrl !== "string" || !/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new UserInputError(
      `config.baseUrl must be the http(s) URL of a Responses API (e.g. http://127.0.0.1:8080/v1); got ${JSON.stringify(baseUrl)}`,
      { baseUrl: "invalid" },
    );
  if (keyEnv !== undefined && (typeof keyEnv !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)))
    throw new UserInputError(
      `config.apiKeyEnv must be the name of an environment variable (e.g. MY_MODEL_KEY); got ${JSON.stringify(keyEnv)}`,
      { apiKeyEnv: "invalid" },
    );
  return { baseUrl, ...(typeof keyEnv === "string" ? { apiKeyEnv: keyEnv } : {}) };
}

/** The reconnect watchdog period of a codex connector (`config.watchdogMs`; MC-11 default 120 s). */
function watchdogOf(connector: Pick<ConnectorRow, "config">): { watchdogMs?: number } {
  const value = connector.config["watchdogMs"];
  if (value === undefined) return {};
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw new UserInputError(
      `config.watchdogMs must be a positive number of milliseconds (default 120000); got ${JSON.stringify(value)}`,
      { watchdogMs: "invalid" },
    );
  return { watchdogMs: value };
}

/** Codex's credential: the connector's own model server's key when it names one, else Codex's own. */
function codexCredentialOf(connector: Pick<ConnectorRow, "config">, env: NodeJS.ProcessEnv): CredentialCheck {
  const provider = codexProviderOf(connector);
  if (provider === undefined) return codexCredentials(env);
  if (provider.apiKeyEnv === undefined)
    return { ok: true, source: `none needed: config.baseUrl ${provider.baseUrl} takes no key` };
  return env[provider.apiKeyEnv]
    ? { ok: true, source: provider.apiKeyEnv }
    : {
        ok: false,
        missing: `${provider.apiKeyEnv} (the key of config.baseUrl, named by config.apiKeyEnv) is not set`,
      };
}

/** Executable found, credentials present, policy valid: otherwise every missing piece, in that order. */
export function harnessReadiness(
  kind: OwnLoopHarness,
  connector: Pick<ConnectorRow, "config">,
  env: NodeJS.ProcessEnv,
): HarnessReadiness {
  const missing: string[] = [];
  const executable = locate(kind, connector, env);
  if (!executable.found) missing.push(executable.missing);
  try {
    const credentials =
      kind === "claude-code" ? claudeCodeCredentials(env) : codexCredentialOf(connector, env);
    if (!credentials.ok) missing.push(credentials.missing);
  } catch (error) {
    missing.push(errorMessage(error));
  }
  try {
    if (kind === "claude-code") {
      const problem = claudeCodePolicyProblem(parseClaudeCodePolicy(connector.config));
      if (problem !== undefined) missing.push(problem);
    } else {
      parseCodexPolicy(connector.config);
      watchdogOf(connector);
    }
  } catch (error) {
    missing.push(errorMessage(error));
  }
  return missing.length === 0 ? { ready: true } : { ready: false, missing: missing.join("; ") };
}

export interface HarnessSessionInput {
  agent: AgentRow;
  connector: ConnectorRow;
  /** Data directory: `cadre mcp` opens its store. */
  dataDir?: string;
  /** The agent's workspace: the harness's working directory, where a member's file tools are confined. */
  workspace?: string;
  /** The run the session belongs to: hires made through `cadre mcp` are recorded against it. */
  runId?: string;
  /** argv prefix that starts the cadre CLI (e.g. [node, .../bin/cadre.js]); default this process when it is the cadre CLI. */
  cadreCommand?: readonly string[];
}

/** The harness's working directory: the agent's workspace (created by the session), else one under the OS temp dir. */
function workingDirectory(input: HarnessSessionInput): string {
  return (
    input.workspace ??
    workspaceOf({ dataDir: input.dataDir, companyId: input.agent.companyId, agentId: input.agent.id })
  );
}

export function claudeCodeSessionOptions(
  input: HarnessSessionInput,
  env: NodeJS.ProcessEnv,
): ClaudeCodeAgentOptions {
  const executable = locate("claude-code", input.connector, env);
  const { maxRetries } = failureBoundsOf(input.connector);
  const options: ClaudeCodeAgentOptions = {
    env,
    // Tools by role (team/tools-by-role.ts): the CEO's none, a member's confined to its workspace.
    policy: claudeCodePolicyFor(input.agent, input.connector, workingDirectory(input)),
    cwd: workingDirectory(input),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  };
  if (executable.found && executable.path !== undefined) options.executablePath = executable.path;
  return options;
}

/** This process, when it is the cadre CLI (`cadre wake`, `cadre serve`, …): Codex starts `cadre mcp` with it. */
function defaultCadreCommand(): string[] {
  const script = process.argv[1];
  if (script !== undefined && /^cadre(\.js)?$/.test(basename(script))) return [process.execPath, script];
  throw new UserInputError(
    "the codex harness reaches the company tools through `cadre mcp`, but this process is not the cadre CLI; pass cadreCommand (the argv that starts cadre)",
  );
}

export function codexSessionOptions(input: HarnessSessionInput, env: NodeJS.ProcessEnv): CodexAgentOptions {
  const { agent } = input;
  if (input.dataDir === undefined && !env["CADRE_DATABASE_URL"]) {
    throw new UserInputError(
      `agent ${agent.name} runs on Codex, which reaches the company tools through \`cadre mcp --agent ${agent.id} --data DIR\`: the session needs the data directory (or CADRE_DATABASE_URL)`,
    );
  }
  const [command, ...prefix] = input.cadreCommand ?? defaultCadreCommand();
  if (command === undefined) throw new UserInputError("cadreCommand must name the program that starts cadre");
  const args = [...prefix, "mcp", "--agent", agent.id];
  if (input.dataDir !== undefined) args.push("--data", input.dataDir);
  if (input.runId !== undefined) args.push("--run", input.runId);
  const executable = locate("codex", input.connector, env);
  const configured = codexProviderOf(input.connector);
  const { maxRetries, unreachableMs } = failureBoundsOf(input.connector);
  const provider =
    configured !== undefined && maxRetries !== undefined ? { ...configured, maxRetries } : configured;
  const options: CodexAgentOptions = {
    env,
    // Tools by role (team/tools-by-role.ts): the CEO read-only, a member's writes held to its workspace.
    policy: codexPolicyFor(agent, input.connector),
    ...(provider !== undefined ? { provider } : {}),
    ...watchdogOf(input.connector),
    ...(unreachableMs !== undefined ? { unreachableMs } : {}),
    cwd: workingDirectory(input),
    // Codex gives a stdio MCP server only a small default environment; `cadre mcp` must see the same
    // credentials, database URL and model config as this process, or readiness would answer differently.
    // Names only: the values never appear on a command line.
    mcpServers: {
      [TOOL_SERVER_NAME]: {
        command,
        args,
        envVars: Object.keys(env)
          .filter((k) => env[k] !== undefined)
          .sort(),
      },
    },
  };
  if (executable.found && executable.path !== undefined) options.executablePath = executable.path;
  return options;
}
