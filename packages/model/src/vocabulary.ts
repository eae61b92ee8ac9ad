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
/** The harnesses that run their own agent loop in their own process (they call the model themselves). */
export type OwnLoopHarness = Exclude<HarnessKind, "pi">;

/** Whose models a registry entry is: a vendor's, an OpenAI-compatible endpoint's, or the offline scripted one. */
export const MODEL_PROVIDERS = ["anthropic", "openai", "openai-compatible", "offline"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

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

/** An operator's role: viewer reads; operator also decides and acts on work; owner also administers. */
export const OPERATOR_ROLES = ["viewer", "operator", "owner"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

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

/**
 * Why an agent is woken (C4-3, OP-1): the operator's explicit start, an approval decision, work
 * (a task assigned, an operator's comment, delegated work done, a blocker finished, an interrupted
 * run's task to continue, a task back from an agent that was terminated), its schedule, or an
 * ordinary wake. Listed in precedence order: a wake
 * with several reasons is named after the first of them.
 */
export const WAKE_TRIGGERS = [
  "start_team_building",
  "approval_decided",
  "task_resumed",
  "task_unassigned",
  "task_assigned",
  "task_commented",
  "task_unblocked",
  "task_done",
  "scheduled",
  "routine",
] as const;
export type WakeTrigger = (typeof WAKE_TRIGGERS)[number];

/** A task's status. `done` and `cancelled` are finished: a finished task wakes nobody (OP-1). */
export const TASK_STATUSES = ["todo", "in_progress", "blocked", "done", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const FINISHED_TASK_STATUSES = ["done", "cancelled"] as const satisfies readonly TaskStatus[];

export function isFinishedTask(status: TaskStatus): boolean {
  return status === "done" || status === "cancelled";
}

/** A wake request: pending until a wake of its agent takes it, or dropped when its reason went away. */
export const WAKE_REQUEST_STATUSES = ["pending", "taken", "dropped"] as const;
export type WakeRequestStatus = (typeof WAKE_REQUEST_STATUSES)[number];

/**
 * A wake taken from the shared queue: running while a worker holds it, retrying when it failed in a
 * way worth another attempt, then done or failed.
 */
export const WAKE_STATUSES = ["running", "retrying", "done", "failed"] as const;
export type WakeStatus = (typeof WAKE_STATUSES)[number];

/** The window a budget's limits count over: a calendar month (UTC) or the whole life of its owner. */
export const BUDGET_PERIODS = ["month", "total"] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** What a schedule does with ticks missed while nothing ran: drop them, or run one wake for all. */
export const SCHEDULE_CATCH_UPS = ["skip", "one"] as const;
export type ScheduleCatchUp = (typeof SCHEDULE_CATCH_UPS)[number];

/** True when `value` is one of `list` (and narrows it). */
export function isOneOf<const T extends readonly string[]>(list: T, value: unknown): value is T[number] {
  return typeof value === "string" && (list as readonly string[]).includes(value);
}
