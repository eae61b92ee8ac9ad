// A trace: what one sample of one scenario did, as recorded facts (versioned; trace/parse.ts
// reads it back strictly). Comparison and gates are computed from traces, never stored in them.
export const TRACE_SCHEMA_VERSION = 1;

/** offline: the scripted model; live: a real vendor call; replayed: answered from a cassette. */
export type TraceSource = "offline" | "live" | "replayed";

export interface TraceToolCall {
  name: string;
  /** Arguments with volatile parts (ids, ports, tokens, whitespace runs) normalised. */
  args: unknown;
  ok: boolean;
  /** The tool result as the model read it, normalised and clipped. */
  result: string;
}

export interface TraceHire {
  name: string;
  role: string;
  description: string;
  department: string | null;
  connectorId: string;
  model: string;
  /** Which path created the agent: "tool" (hire_agent) or "http" (the legacy route). */
  via: string;
}

export interface TraceApproval {
  type: string;
  title: string;
  status: string;
  via: string;
}

export interface TraceUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheHitRate: number;
  modelCalls: number;
}

export interface TraceAgent {
  name: string;
  role: string;
  department: string | null;
  connectorId: string;
  model: string;
  via: string;
  status: string;
  isCeo: boolean;
}

export interface Trace {
  schemaVersion: typeof TRACE_SCHEMA_VERSION;
  scenarioId: string;
  sample: number;
  seed: number;
  profile: string;
  /** The CEO's connector and model, e.g. "offline/offline-scripted-1". */
  ceoRoute: string;
  source: TraceSource;
  /** The deliberate break applied to the candidate, if any. */
  break: string | null;
  trigger: string;
  modeBefore: string;
  modeAfter: string;
  cue: { text: string; tokens: number };
  /** observed: measured on the request the model received; otherwise no model call was seen (tokens 0). */
  systemPrompt: { tokens: number; sha256: string; observed: boolean };
  /** Tools offered to the model on its first call, with the hash of each input schema. */
  tools: Array<{ name: string; schemaHash: string }>;
  toolCalls: TraceToolCall[];
  /** Path-independent effects in commit order: "hire:<department>", "file:<approval type>". */
  trajectory: string[];
  hires: TraceHire[];
  approvalsFiled: TraceApproval[];
  usage: TraceUsage;
  latencyMs: number;
  terminal: "done" | "failed" | "cancelled";
  errors: string[];
  finalState: { mode: string; agents: TraceAgent[]; approvals: TraceApproval[] };
}

/** The traces of one scenario, as written to traces/<scenario>.json. */
export interface ScenarioTraces {
  schemaVersion: typeof TRACE_SCHEMA_VERSION;
  kind: "cadre-eval-traces";
  /** The scenario as recorded, in its file form (scenario/document.ts); `hash` is that of the parsed scenario. */
  scenario: { id: string; hash: string; snapshot: Record<string, unknown> };
  traces: Trace[];
}
