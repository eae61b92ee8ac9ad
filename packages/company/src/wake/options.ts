// What a wake is asked (its options) and what it answers (its result), shared by its stages.
import type { AgentEvent, BaseAgent, TerminalStatus, ToolDefinition, Usage } from "@cadre/core";
import type { FaultName, Script } from "@cadre/core/offline";
import type { CeoMode, PromptProfile, WakeTrigger } from "@cadre/model";
import type { RunRow, SessionHarness, Store, WakeRequestRow } from "@cadre/store";
import type { ProbeBook } from "../connectors/probe-cache.js";
import type { ModeDocumentEdit } from "../prompts/build.js";
import type { SessionInput } from "../session.js";
import type { RunStop } from "../budgets/run-budget.js";
import type { DueChecked } from "../work/due-check.js";

export interface WakeOptions {
  store: Store;
  agentId: string;
  /**
   * Default: the first, in precedence order, of the agent's due wake requests that this wake takes
   * (work/due.ts), else inferred (a decision since the agent's last run → approval_decided, else routine).
   */
  trigger?: WakeTrigger;
  /** Data directory; agents' working folders (MEMORY.md) live under it. */
  dataDir?: string;
  seed?: number | string;
  script?: Script;
  env?: NodeJS.ProcessEnv;
  /**
   * Where connector readiness reads its probes' outcomes (default the process's cache). The wake
   * refreshes the company's stale probes before it builds the prompt, outside every transaction.
   */
  probes?: ProbeBook;
  /** Called for every event as it happens, before it is persisted. */
  onEvent?: (event: AgentEvent) => void;
  /** Called once the run row exists (so a caller can show or cancel it). */
  onStart?: (info: { run: RunRow; cue: string; cueTokens: number; mode: CeoMode }) => void;
  /** Called with the live session before its turn starts (the server's model switch reaches it, MC-13). */
  onSession?: (session: BaseAgent) => void;
  /** Prompt profile of this wake (C4-7); default: the company's settings.profile. Members always run semantic. */
  profile?: PromptProfile;
  /** Base URL of a running Cadre API, for a profile whose CEO acts over HTTP (ProfileDriver.needsApi). */
  apiUrl?: string;
  /** Aborting cancels the run; it still ends with exactly one terminal event (`cancelled`). */
  signal?: AbortSignal;
  /** Failure rehearsal on the offline connector (`--faults`): faults injected at the provider boundary. */
  faults?: readonly FaultName[];
  /** Wraps the CEO's or member's model call (evals' cassettes); Pi-routed connectors only (see session.ts). */
  wrapStreamFn?: SessionInput["wrapStreamFn"];
  /**
   * Wraps a Claude Code or Codex session (evals' harness cassettes; see session.ts). A Pi-routed
   * session never reaches it: its model calls go through wrapStreamFn.
   */
  wrapHarness?: SessionInput["wrapHarness"];
  /** Evals only: a deliberately broken mode document (evals/runner/breaks.ts); the locked texts stay as they are. */
  modeDocument?: ModeDocumentEdit;
  /** Evals only: rewrites the CEO's initial turn (a mutated cue, evals/sensitivity); the locked cues stay as they are. */
  cue?: (mode: CeoMode, cue: string) => string;
  /**
   * Evals only: changes the tools the CEO's session is given (a mutated offer or schema, as a code
   * change would make it; evals/sensitivity). The registry stays as it is.
   */
  toolOffer?: (mode: CeoMode, tools: readonly ToolDefinition[]) => ToolDefinition[];
  /** argv prefix that starts the cadre CLI, for Codex's `cadre mcp` (default: this process, when it is the cadre CLI). */
  cadreCommand?: readonly string[];
  /**
   * The store given is a wake lease's view (a queue worker's, which claimed the wake): the run is
   * held by that lease. Otherwise the wake takes a lease of its own (one running wake per agent,
   * across processes), renews it while it runs and releases it with the run's end.
   */
  underLease?: boolean;
  /** Length of the wake's own lease (default 30 s): a process elsewhere that stops renewing it loses the run. */
  leaseMs?: number;
  /**
   * What a due-work pass read and checked about the agent just now (runDue's `checked`): the
   * plan takes the agent and its budgets from it instead of reading and checking them again.
   */
  checked?: DueChecked;
}

export interface WakeResult {
  run: RunRow;
  cue: string;
  cueTokens: number;
  modeBefore: CeoMode;
  modeAfter: CeoMode;
  terminal: TerminalStatus;
  /** The run's usage (core's counters); edges that document another shape map it there (the CLI's --json). */
  usage: Usage;
  /** Wire-only replays of a failed user message (MC-10) and window rollovers (MC-9) during the run. */
  replays: number;
  rollovers: number;
  /** The wake requests the run took (OP-1: every due one of the agent, coalesced into this wake). */
  requests: WakeRequestRow[];
  /** The native session the run ran in (SPEC §5): its id, whether it continued the agent's, whether it rolled over. */
  session: WakeSession;
  /** Why code stopped the run: "budget" (the company's or an agent's budget) or "run_cap" (one of the run's caps, named in the run's error); else null. */
  stopReason: RunStop["reason"] | "model_drift" | null;
}

export interface WakeSession {
  harness: SessionHarness;
  /** The Pi session id, Claude Code session id or Codex thread id; null when none was started. */
  id: string | null;
  /** The run continued the agent's session from an earlier wake. */
  resumed: boolean;
  /** The run's window rolled over, or began from a handoff a closed window left (MC-9, MC-13). */
  rolledOver: boolean;
}
