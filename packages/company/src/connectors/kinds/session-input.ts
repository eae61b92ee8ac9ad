// What a session is made from: the agent, its connector, the assembled prompt and tools, and the
// wrappers around its model calls — the input every connector driver's createSession takes — and
// the connector settings every session reads (compaction threshold, prompt timeout, Pi's tools).
import {
  type BaseAgent,
  type ModelCallPrefix,
  type PiCodingTool,
  type PromptSegment,
  type Redactor,
  type SessionConfig,
  type SessionContinuation,
  type StreamFn,
  type ToolDefinition,
  UserInputError,
} from "@cadre/core";
import type { FaultName, Script } from "@cadre/core/offline";
import type { OwnLoopHarness, Static } from "@cadre/model";
import type { TSchema } from "typebox";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import type { ProbeBook } from "../probe-cache.js";
import { checkSetting, CompactThreshold, PiTools, PromptTimeoutMs } from "../connector-config.js";

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
  /** Data directory: Pi's session files, and the store `cadre mcp` opens for Codex. */
  dataDir?: string;
  /**
   * The agent's workspace (team/workspace.ts), where every harness works and its file tools are
   * confined; created if missing. Default: the one under the data directory (or the OS temp dir).
   */
  workspace?: string;
  /** The run this session belongs to (codex: hires through `cadre mcp` are recorded against it). */
  runId?: string;
  /** argv prefix that starts the cadre CLI, for Codex's `cadre mcp` (default: this process, when it is the cadre CLI). */
  cadreCommand?: readonly string[];
  /** The agent's native session to continue, or the handoff a fresh one starts from (agent-session.ts). */
  continuation?: SessionContinuation;
  /** Every configured key (secrets.ts): what the session emits and Pi stores is redacted of them. */
  redact?: Redactor;
}

/** A harness session as a cassette sees it: what it is (its key), and how to start the real one. */
export interface HarnessSessionCall {
  kind: OwnLoopHarness;
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

/** MC-3 for harnesses that run their own loop: each turn's hand-over is checked against the assembled segments. */
export function handedPrefixOf(input: SessionInput): {
  segments?: readonly PromptSegment[];
  onTurnPrefix?: (prefix: ModelCallPrefix) => void;
} {
  return {
    ...(input.segments ? { segments: input.segments } : {}),
    ...(input.onModelCall ? { onTurnPrefix: input.onModelCall } : {}),
  };
}

/** One setting read by its rule (connector-config.ts: the one `connectors add` checks too). */
function setting<S extends TSchema>(connector: ConnectorRow, key: string, schema: S): Static<S> | undefined {
  const value = connector.config[key];
  if (value === undefined) return undefined;
  const checked = checkSetting(schema, value);
  // A row stored before the door checked it: the wake says what to fix, and where.
  if (!checked.ok)
    throw new UserInputError(
      `connector "${connector.id}": config.${key} ${checked.why}; fix it with \`cadre connectors remove ${connector.id}\` and add it again`,
    );
  return checked.value;
}

/** MC-8: a connector's explicit compaction threshold (`config.compactThreshold`, a fraction) overrides the 90% default. */
export function compactThresholdOf(connector: ConnectorRow): { compactThreshold?: number } {
  const value = setting(connector, "compactThreshold", CompactThreshold);
  return value === undefined ? {} : { compactThreshold: value };
}

/** MC-11: a connector's Pi prompt timeout (`config.promptTimeoutMs`) overrides the 10-minute default. */
export function promptTimeoutOf(connector: ConnectorRow): { promptTimeoutMs?: number } {
  const value = setting(connector, "promptTimeoutMs", PromptTimeoutMs);
  return value === undefined ? {} : { promptTimeoutMs: value };
}

/**
 * Pi's coding tools a connector names (`config.piTools`, e.g. ["read"]): a member's file tools are
 * narrowed to them (team/tools-by-role.ts decides). grep and find are never offered (Pi would
 * download binaries for them).
 */
export function piToolsOf(connector: ConnectorRow): { codingTools?: PiCodingTool[] } {
  const value = setting(connector, "piTools", PiTools);
  return value === undefined ? {} : { codingTools: [...value] as PiCodingTool[] };
}
