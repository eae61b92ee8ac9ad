// The `claude-code` and `codex` connectors: agent harnesses that run their own loop in their own
// process. Readiness finds the executable and the credentials (and checks the policy in the
// connector's config) and names everything that is missing; the session options say how the
// harness reaches the company tools and what it may do.
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  type ClaudeCodeAgentOptions,
  claudeCodeCredentials,
  type CodexAgentOptions,
  codexCredentials,
  errorMessage,
  locateClaudeCode,
  locateCodex,
  type Located,
  parseClaudeCodePolicy,
  parseCodexPolicy,
  TOOL_SERVER_NAME,
  UserInputError,
} from "@cadre/core";
import type { AgentRow, ConnectorRow } from "@cadre/store";

export type HarnessKind = "claude-code" | "codex";

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

function locate(kind: HarnessKind, connector: Pick<ConnectorRow, "config">, env: NodeJS.ProcessEnv): Located {
  const path = configuredPath(connector);
  if (path instanceof Error) return { found: false, missing: path.message };
  return kind === "claude-code" ? locateClaudeCode(path, env) : locateCodex(path, env);
}

/** Executable found, credentials present, policy valid: otherwise every missing piece, in that order. */
export function harnessReadiness(
  kind: HarnessKind,
  connector: Pick<ConnectorRow, "config">,
  env: NodeJS.ProcessEnv,
): HarnessReadiness {
  const missing: string[] = [];
  const executable = locate(kind, connector, env);
  if (!executable.found) missing.push(executable.missing);
  const credentials = kind === "claude-code" ? claudeCodeCredentials(env) : codexCredentials(env);
  if (!credentials.ok) missing.push(credentials.missing);
  try {
    if (kind === "claude-code") parseClaudeCodePolicy(connector.config);
    else parseCodexPolicy(connector.config);
  } catch (error) {
    missing.push(errorMessage(error));
  }
  return missing.length === 0 ? { ready: true } : { ready: false, missing: missing.join("; ") };
}

export interface HarnessSessionInput {
  agent: AgentRow;
  connector: ConnectorRow;
  /** Data directory: the agent's working folder lives under it, and `cadre mcp` opens its store. */
  dataDir?: string;
  /** The run the session belongs to: hires made through `cadre mcp` are recorded against it. */
  runId?: string;
  /** argv prefix that starts the cadre CLI (e.g. [node, .../bin/cadre.js]); default this process when it is the cadre CLI. */
  cadreCommand?: readonly string[];
}

/**
 * The agent's working folder (MEMORY.md lives there), created on demand. Without a data directory a
 * folder of its own under the OS temp dir — never the operator's current directory, which the
 * harness's read-only tools could otherwise browse.
 */
/** The agent's working folder (DATA_DIR/agents/AGENT_ID): MEMORY.md, Claude Code's cwd, Pi's sessions beside it. */
export function workingFolder(dataDir: string | undefined, agentId: string): string {
  const dir =
    dataDir !== undefined ? join(dataDir, "agents", agentId) : join(tmpdir(), "cadre-agents", agentId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function claudeCodeSessionOptions(
  input: HarnessSessionInput,
  env: NodeJS.ProcessEnv,
): ClaudeCodeAgentOptions {
  const executable = locate("claude-code", input.connector, env);
  const options: ClaudeCodeAgentOptions = {
    env,
    policy: parseClaudeCodePolicy(input.connector.config),
    cwd: workingFolder(input.dataDir, input.agent.id),
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
  const options: CodexAgentOptions = {
    env,
    policy: parseCodexPolicy(input.connector.config),
    cwd: workingFolder(input.dataDir, agent.id),
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
