// The domain's words, each once: an `as const` list (for validation, schemas, help texts and
// menus) and the type derived from it. Every package speaks these; none re-lists them.

/** Harness + provider of a connector (C4-9). */
export const CONNECTOR_KINDS = [
  "offline",
  "anthropic",
  "openai",
  "openai-compatible",
  "claude-code",
  "codex",
] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];

/** The agent harnesses (a model-only connector's agent runs in Pi); an agent's session is one of theirs. */
export const HARNESS_KINDS = ["pi", "claude-code", "codex"] as const;
export type HarnessKind = (typeof HARNESS_KINDS)[number];

export const DEPARTMENTS = [
  "engineering",
  "product",
  "design",
  "marketing",
  "sales",
  "operations",
  "legal",
  "finance",
] as const;
export type Department = (typeof DEPARTMENTS)[number];

export const AGENT_STATUSES = ["active", "terminated"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Which path created a record: a model-facing tool, the legacy HTTP route, or the system itself. */
export const VIAS = ["tool", "http", "system"] as const;
export type Via = (typeof VIAS)[number];

export const APPROVAL_TYPES = ["approve_ceo_strategy", "hire_agent"] as const;
export type ApprovalType = (typeof APPROVAL_TYPES)[number];

export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "revision_requested"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const RUN_STATUSES = ["running", "done", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The prompt profile of a wake: the semantic cue and tools, or the legacy baseline (C4-7). */
export const PROMPT_PROFILES = ["semantic", "legacy"] as const;
export type PromptProfile = (typeof PROMPT_PROFILES)[number];

/** The CEO's modes (C4-4), in the order a company normally passes through them. */
export const CEO_MODES = [
  "team-building",
  "strategy-drafting",
  "awaiting-approval",
  "revising",
  "operating",
] as const;
export type CeoMode = (typeof CEO_MODES)[number];

/** Why an agent is woken: the operator's explicit start, an approval decision, or an ordinary wake (C4-3). */
export const WAKE_TRIGGERS = ["start_team_building", "approval_decided", "routine"] as const;
export type WakeTrigger = (typeof WAKE_TRIGGERS)[number];

/** True when `value` is one of `list` (and narrows it). */
export function isOneOf<const T extends readonly string[]>(list: T, value: unknown): value is T[number] {
  return typeof value === "string" && (list as readonly string[]).includes(value);
}
