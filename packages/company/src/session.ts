// Builds the core session for an agent: picks the harness and the model route from its connector.
// The one place where a connector becomes a running agent (MC-1: the loop itself lives in core).
import { basename, isAbsolute, join } from "node:path";
import {
  type BaseAgent,
  ClaudeCodeAgent,
  CodexAgent,
  type ModelCallPrefix,
  PI_CODING_TOOLS,
  PiAgent,
  type PiCodingTool,
  type PromptSegment,
  type SessionConfig,
  type SessionContinuation,
  type StreamFn,
  TOOL_SERVER_NAME,
  type ToolDefinition,
  UserInputError,
} from "@cadre/core";
// The offline connector plugs core's scripted model (and, for rehearsals, its fault injection) into
// Pi: product code, importing `@cadre/core/testing` for that connector only.
import {
  createScriptedStreamFn,
  type FaultName,
  injectFaults,
  REHEARSAL_PROMPT_TIMEOUT_MS,
  type Script,
} from "@cadre/core/testing";
import { streamSimple } from "@mariozechner/pi-ai";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import { keyEnvOf, readiness } from "./connectors.js";
import { resolveConnectorModel } from "./connectors/connector-models.js";
import type { ProbeBook } from "./connectors/probe-cache.js";
import type { CompanyToolName } from "./tools/registry.js";
import { claudeCodeSessionOptions, codexSessionOptions, workingFolder } from "./harness-connectors.js";
import { offlineMemberScript } from "./offline/ceo-script.js";
import { offlineCeoScript } from "./profiles/offline-ceo-script.js";

export interface SessionInput {
  sessionId: string;
  agent: AgentRow;
  connector: ConnectorRow;
  systemPrompt: string;
  /** The assembled prompt's segments: each model call is checked against them (MC-3). */
  segments?: readonly PromptSegment[];
  /** Called once per model call with the hashes of its stable prefix (cache reports). */
  onModelCall?: (prefix: ModelCallPrefix) => void;
  tools: readonly ToolDefinition[];
  /** Seed of the offline model's variation. */
  seed: number | string;
  /** Replaces the offline script (tests, fault rehearsal). */
  script?: Script;
  /** Failure rehearsal, offline connector only: faults injected at the provider boundary (`--faults`). */
  faults?: readonly FaultName[];
  env?: NodeJS.ProcessEnv;
  /** Where readiness reads the probes' last outcomes (refreshed before the session); default the process's cache. */
  probes?: ProbeBook;
  /**
   * Wraps the model call (evals' record/replay cassettes): the scripted model (with its faults) on
   * the offline connector, pi-ai's streamSimple on a vendor one. Pi-routed connectors only.
   */
  wrapStreamFn?: (inner: StreamFn, connector: Pick<ConnectorRow, "id" | "kind">) => StreamFn;
  /**
   * Wraps a Claude Code or Codex session (evals' harness cassettes): given what the session is and
   * how to start the real one, returns the session the wake drives. Harnesses that run their own loop only.
   */
  wrapHarness?: (call: HarnessSessionCall) => BaseAgent;
  /**
   * The run's spend control (budgets/run-budget.ts): outermost around every model call of a
   * Pi-routed session, so a call it refuses reaches neither a cassette nor the provider.
   */
  guardStreamFn?: (inner: StreamFn) => StreamFn;
  /** Data directory (claude-code, codex): the agent's working folder, and the store `cadre mcp` opens for Codex. */
  dataDir?: string;
  /** The run this session belongs to (codex: hires through `cadre mcp` are recorded against it). */
  runId?: string;
  /** argv prefix that starts the cadre CLI, for Codex's `cadre mcp` (default: this process, when it is the cadre CLI). */
  cadreCommand?: readonly string[];
  /** The agent's native session to continue, or the handoff a fresh one starts from (agent-session.ts). */
  continuation?: SessionContinuation;
}

/**
 * The tool whose success `overflow-after-tool` waits for: a hire is the side effect a replay would
 * repeat (the rehearsal shows it is not replayed and the agent exists once).
 */
const REHEARSED_SIDE_EFFECTS: readonly CompanyToolName[] = ["hire_agent"];

const PI_ROUTED: ReadonlySet<string> = new Set(["offline", "anthropic", "openai", "openai-compatible"]);

/** A harness session as a cassette sees it: what it is (its key), and how to start the real one. */
export interface HarnessSessionCall {
  kind: "claude-code" | "codex";
  /** Session id, system prompt, model and the company tools (the ones a replay executes). */
  config: SessionConfig;
  /**
   * The MCP servers the harness is given and its policy, without what differs between two runs of
   * one wake (paths, ids, environment values): a changed server or policy is a different key.
   */
  mcp: unknown;
  /** Starts the real harness session (its process launches on the first send). */
  launch(): BaseAgent;
}

/** A stdio MCP server's arguments, stable across runs: paths and generated ids are placeholders. */
function stableArgs(args: readonly string[]): string[] {
  return args.map((a) => (isAbsolute(a) ? "<path>" : /^[a-z]{2,4}_[0-9a-zA-Z]{6,}$/.test(a) ? "<id>" : a));
}

/** Harnesses that run their own loop call the model themselves: there is no model call to wrap. */
export function requireWrappable(connector: Pick<ConnectorRow, "id" | "kind">, agentName: string): void {
  if (PI_ROUTED.has(connector.kind)) return;
  throw new UserInputError(
    `cassettes record Pi-routed connectors only (${[...PI_ROUTED].join(", ")}); ${agentName} runs on "${connector.id}" (${connector.kind}), whose harness calls the model itself`,
  );
}

export function createSession(input: SessionInput): BaseAgent {
  if (input.wrapStreamFn && !input.wrapHarness) requireWrappable(input.connector, input.agent.name);
  const env = input.env ?? process.env;
  const state = readiness(input.connector, env, input.probes);
  if (!state.ready)
    throw new UserInputError(
      `connector "${input.connector.id}" of agent ${input.agent.name} is not ready: ${state.missing}`,
    );
  const config: SessionConfig = {
    sessionId: input.sessionId,
    systemPrompt: input.systemPrompt,
    // The model as its connector routes it: a registry id, or one the endpoint declares with its window.
    model: resolveConnectorModel(input.connector, input.agent.model),
    tools: input.tools,
  };
  const continuation = input.continuation ?? {};
  const prefix = {
    ...(input.segments ? { segments: input.segments } : {}),
    ...(input.onModelCall ? { onModelCall: input.onModelCall } : {}),
    ...compactThresholdOf(input.connector),
    ...promptTimeoutOf(input.connector),
    ...continuation,
    ...piToolsOf(input.connector),
    // Pi's session files live with the agent (DATA_DIR/agents/AGENT_ID/sessions); without a data
    // directory (evals, tests) the session lives in memory and every wake starts fresh.
    ...(input.dataDir !== undefined
      ? {
          sessionDir: join(input.dataDir, "agents", input.agent.id, "sessions"),
          cwd: workingFolder(input.dataDir, input.agent.id),
        }
      : {}),
  };
  if (input.faults?.length && input.connector.kind !== "offline") {
    throw new UserInputError(
      `--faults rehearses failures on the offline connector only; ${input.agent.name} runs on "${input.connector.id}" (${input.connector.kind})`,
    );
  }
  const cassette = input.wrapStreamFn
    ? (inner: StreamFn) => input.wrapStreamFn!(inner, input.connector)
    : (inner: StreamFn) => inner;
  const guard = input.guardStreamFn ?? ((inner: StreamFn) => inner);
  const wrap = (inner: StreamFn) => guard(cassette(inner));
  switch (input.connector.kind) {
    case "offline": {
      const script = input.script ?? (input.agent.isCeo ? offlineCeoScript : offlineMemberScript);
      const streamFn = createScriptedStreamFn({ script, seed: input.seed }) as StreamFn;
      if (!input.faults?.length) return new PiAgent(config, { ...prefix, streamFn: wrap(streamFn) });
      const faulted = injectFaults(input.faults, { streamFn, sideEffectTools: REHEARSED_SIDE_EFFECTS });
      // Stated here, not left on the faulted function, so a wrapper (cassettes) cannot drop it.
      const rehearsal =
        input.faults.includes("prompt-timeout") && prefix.promptTimeoutMs === undefined
          ? { promptTimeoutMs: REHEARSAL_PROMPT_TIMEOUT_MS }
          : {};
      return new PiAgent(config, { ...prefix, ...rehearsal, streamFn: wrap(faulted.streamFn) });
    }
    case "anthropic":
    case "openai": {
      const keyEnv = keyEnvOf(input.connector);
      const baseUrl = input.connector.config["baseUrl"];
      // streamSimple is PiAgent's default; passed explicitly so a wrapper has something to wrap.
      return new PiAgent(config, {
        ...prefix,
        // A gateway in front of the vendor's API, when configured; else the vendor's own endpoint.
        ...(typeof baseUrl === "string" ? { route: { baseUrl } } : {}),
        streamFn: wrap(streamSimple),
        getApiKey: () => (keyEnv ? env[keyEnv] : undefined),
      });
    }
    case "openai-compatible": {
      const keyEnv = keyEnvOf(input.connector);
      const baseUrl = String(input.connector.config["baseUrl"]);
      // Local servers usually need no key; pi-ai's OpenAI client still wants a non-empty one.
      return new PiAgent(config, {
        ...prefix,
        route: { baseUrl },
        streamFn: wrap(streamSimple),
        getApiKey: () => (keyEnv && env[keyEnv]) || "not-needed",
      });
    }
    // Harnesses that run their own loop: the company tools reach Claude Code as an in-process MCP
    // server built from `tools`, and Codex through `cadre mcp --agent ID` (the same definitions).
    case "claude-code": {
      const options = {
        ...claudeCodeSessionOptions(input, env),
        ...compactThresholdOf(input.connector),
        ...continuation,
        ...handedPrefixOf(input),
      };
      const launch = () => new ClaudeCodeAgent(config, options);
      if (!input.wrapHarness) return launch();
      const mcp = {
        servers: [{ name: TOOL_SERVER_NAME, transport: "in-process" }],
        policy: options.policy ?? null,
      };
      return input.wrapHarness({ kind: "claude-code", config, mcp, launch });
    }
    case "codex": {
      const options = {
        ...codexSessionOptions(input, env),
        ...compactThresholdOf(input.connector),
        ...continuation,
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
    }
    default:
      throw new UserInputError(`connector kind "${input.connector.kind}" has no harness in this build`);
  }
}

/** MC-3 for harnesses that run their own loop: each turn's hand-over is checked against the assembled segments. */
function handedPrefixOf(input: SessionInput): {
  segments?: readonly PromptSegment[];
  onTurnPrefix?: (prefix: ModelCallPrefix) => void;
} {
  return {
    ...(input.segments ? { segments: input.segments } : {}),
    ...(input.onModelCall ? { onTurnPrefix: input.onModelCall } : {}),
  };
}

/** MC-8: a connector's explicit compaction threshold (`config.compactThreshold`, a fraction) overrides the 90% default. */
function compactThresholdOf(connector: ConnectorRow): { compactThreshold?: number } {
  const value = connector.config["compactThreshold"];
  if (value === undefined) return {};
  if (typeof value !== "number")
    throw new UserInputError(
      `connector "${connector.id}": config.compactThreshold must be a fraction in (0, 1], e.g. 0.9`,
    );
  return { compactThreshold: value };
}

/** MC-11: a connector's Pi prompt timeout (`config.promptTimeoutMs`) overrides the 10-minute default; PiAgent checks its range. */
function promptTimeoutOf(connector: ConnectorRow): { promptTimeoutMs?: number } {
  const value = connector.config["promptTimeoutMs"];
  if (value === undefined) return {};
  if (typeof value !== "number")
    throw new UserInputError(
      `connector "${connector.id}": config.promptTimeoutMs must be a number of milliseconds, e.g. 600000`,
    );
  return { promptTimeoutMs: value };
}

/**
 * Pi's coding tools a connector grants (`config.piTools`, e.g. ["read"]); none unless it does. The
 * company tools are always there; grep and find are not offered (Pi would download binaries for them).
 */
export function piToolsOf(connector: ConnectorRow): { codingTools?: PiCodingTool[] } {
  const value = connector.config["piTools"];
  if (value === undefined) return {};
  const allowed = PI_CODING_TOOLS as readonly string[];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || !allowed.includes(v)))
    throw new UserInputError(
      `connector "${connector.id}": config.piTools must be a list of Pi coding tools from ${allowed.join(", ")} (got ${JSON.stringify(value)})`,
    );
  return { codingTools: value as PiCodingTool[] };
}
