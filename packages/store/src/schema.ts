// The Kysely view of the tables: snake_case columns as stored. Only kysely-queries.ts and rows.ts
// see these shapes; everyone else sees the records in types.ts.
import type { ColumnType, Generated, SqlBool } from "kysely";
import type {
  AgentStatus,
  ApprovalStatus,
  ApprovalType,
  ConnectorKind,
  Department,
  OperatorRole,
  PromptProfile,
  RunStatus,
  ScheduleCatchUp,
  TaskStatus,
  Via,
  WakeTrigger,
} from "@cadre/model";
import type { WakeRequestStatus, WakeStatus } from "./types.js";

/**
 * A JSON column. Written as serialised text (see DialectAdapter.encodeJson); read back as whatever
 * the driver returns (text in SQLite, already parsed in PostgreSQL), hence `unknown`.
 */
export type JsonColumn = ColumnType<unknown, string, string>;

/** ISO-8601 UTC text in every dialect, so that ordering is lexicographic and values round-trip exactly. */
export type Timestamp = string;

export interface CompaniesTable {
  id: string;
  name: string;
  goal: string;
  settings: JsonColumn;
  created_at: Timestamp;
  /** The process running its due work, as JSON text (migration 017); null when none does. */
  run_owner?: string | null;
  run_owner_since?: Timestamp | null;
  run_owner_until?: Timestamp | null;
}

export interface ConnectorsTable {
  company_id: string;
  id: string;
  kind: ConnectorKind;
  label: string;
  enabled_models: JsonColumn;
  config: JsonColumn;
  created_at: Timestamp;
  /** Set when the connector was removed (migration 009): it leaves every list and look-up. */
  removed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** `{ [modelId]: fingerprint }` the endpoint offered when each model was declared (migration 025). */
  model_fingerprints: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AgentsTable {
  id: string;
  company_id: string;
  name: string;
  /** agentNameKey(name): unique among the company's active agents (migration 007). */
  name_key: string;
  role: string;
  description: string;
  department: Department | null;
  connector_id: string;
  model: string;
  reports_to: string | null;
  is_ceo: SqlBool;
  status: AgentStatus;
  via: Via;
  created_at: Timestamp;
}

export interface ApprovalsTable {
  id: string;
  company_id: string;
  type: ApprovalType;
  title: string;
  payload: string;
  status: ApprovalStatus;
  filed_by_agent_id: string | null;
  via: Via;
  decision_note: string | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export interface ApprovalEventsTable {
  id: Generated<number>;
  approval_id: string;
  from_status: ApprovalStatus | null;
  to_status: ApprovalStatus;
  note: string | null;
  actor: string;
  at: Timestamp;
}

export interface RunsTable {
  id: string;
  company_id: string;
  agent_id: string;
  trigger: string;
  mode: string;
  profile: PromptProfile;
  cue: string;
  status: RunStatus;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  error: string | null;
  started_at: Timestamp;
  ended_at: Timestamp | null;
  /** Why code stopped the run ("budget", "run_cap"); null otherwise (migration 011). */
  stop_reason: string | null;
}

export interface RunEventsTable {
  /** Autoincrement: the global order of events across the store. */
  id: Generated<number>;
  run_id: string;
  company_id: string;
  seq: number;
  type: string;
  data: JsonColumn;
  at: Timestamp;
}

export interface ActivityTable {
  id: Generated<number>;
  company_id: string;
  agent_id: string | null;
  run_id: string | null;
  type: string;
  data: JsonColumn;
  at: Timestamp;
}

export interface ApiTokensTable {
  id: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  hash: string;
  company_id: string;
  agent_id: string;
  run_id: string | null;
  label: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** One id space over run_events and activity, per company: exactly one of the two refs is set. */
export interface CompanyFeedTable {
  id: Generated<number>;
  company_id: string;
  run_event_id: number | null;
  activity_id: number | null;
}

/** A wake taken from the shared queue (migration 004). */
export interface WakesTable {
  id: string;
  company_id: string;
  agent_id: string;
  status: WakeStatus;
  run_id: string | null;
  attempts: number;
  worker_id: string | null;
  lease_until: Timestamp | null;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The process holding it (migration 006); null on wakes from before it. */
  owner_host: string | null;
  owner_pid: number | null;
  owner_started: string | null;
}

/** A child process group a run started (migration 006). */
export interface RunProcessesTable {
  run_id: string;
  pid: number;
  host: string;
  started: string;
  created_at: Timestamp;
}

/** A side-effecting tool call's recorded result (migration 005). */
export interface ToolCallsTable {
  run_id: string;
  tool_call_id: string;
  tool: string;
  input_hash: string;
  result: JsonColumn;
  created_at: Timestamp;
}

/** An agent's current native session (migration 008). */
export interface AgentSessionsTable {
  agent_id: string;
  company_id: string;
  harness: string;
  connector_id: string;
  model: string;
  session_id: string | null;
  session_file: string | null;
  reserve_tokens: number | null;
  tokens_in_window: number | null;
  rolled_over: SqlBool;
  bootstrap: JsonColumn | null;
  digest: JsonColumn;
  prompt: JsonColumn | null;
  vendor_totals: JsonColumn | null;
  running_run_id: string | null;
  last_run_id: string | null;
  previous_session_id: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp;
}

/** A company's (agent_id '') or an agent's budget (migration 011). */
export interface BudgetsTable {
  company_id: string;
  agent_id: string;
  limit_usd: number | null;
  limit_tokens: number | null;
  period: string;
  warn_at: number;
  run_caps: JsonColumn | null;
  updated_at: Timestamp;
}

/** The spend ledger: one row per model call, reserved before it and settled with its usage (migration 011). */
export interface ModelCallsTable {
  id: string;
  company_id: string;
  agent_id: string;
  run_id: string;
  status: "reserved" | "settled";
  model: string;
  served_model: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number | null;
  reserved_tokens: number;
  reserved_usd: number | null;
  created_at: Timestamp;
  settled_at: Timestamp | null;
}

/** Running totals of settled spend per company, agent ('' for all) and month ('' for all time) (migration 021). */
export interface SpendTotalsTable {
  company_id: string;
  agent_id: string;
  month: string;
  tokens: number;
  usd: number;
  unpriced_calls: number;
  calls: number;
}

/** Tasks and what hangs off them (migration 010). */
export interface TasksTable {
  id: string;
  company_id: string;
  title: string;
  description: string;
  status: TaskStatus;
  assignee_agent_id: string | null;
  creator_agent_id: string | null;
  parent_task_id: string | null;
  strategy_id: string | null;
  deliverable: string | null;
  /** Who handed the deliverable in: an agent id or "operator" (migration 017; null before it). */
  deliverable_by: string | null;
  checkout_run_id: string | null;
  via: Via;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TaskBlockersTable {
  task_id: string;
  blocker_task_id: string;
  position: number;
}

export interface TaskCommentsTable {
  id: string;
  task_id: string;
  company_id: string;
  author_agent_id: string | null;
  /** The operator who wrote it (migration 018); null for agents and older rows. */
  author_name: ColumnType<string | null, string | null | undefined, string | null>;
  body: string;
  run_id: string | null;
  via: Via;
  created_at: Timestamp;
}

/** Distinct contents of files handed in, by SHA-256 (migration 023); base64 text, never updated. */
export interface FileContentsTable {
  sha256: string;
  size: number;
  content: string;
  created_at: Timestamp;
}

/** A file attached to a task (migration 023); never updated. */
export interface TaskFilesTable {
  id: string;
  task_id: string;
  company_id: string;
  name: string;
  sha256: string;
  size: number;
  media_type: string;
  added_by: string;
  run_id: string | null;
  created_at: Timestamp;
}

export interface WakeRequestsTable {
  id: string;
  company_id: string;
  agent_id: string;
  trigger: WakeTrigger;
  task_id: string | null;
  caused_by: string;
  cause: string;
  status: WakeRequestStatus;
  run_id: string | null;
  note: string | null;
  /** How often a run that did not finish gave it back (migration 013). */
  returns: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SchedulesTable {
  id: string;
  company_id: string;
  agent_id: string;
  every_seconds: number | null;
  cron: string | null;
  timezone: string;
  catch_up: ScheduleCatchUp;
  next_due_at: Timestamp;
  last_tick_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OperatorsTable {
  id: string;
  name: string;
  role: OperatorRole;
  company_ids: JsonColumn | null;
  token_hash: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  company_id: string | null;
  actor_type: "operator" | "agent" | "system";
  actor_id: string | null;
  actor_name: string;
  action: string;
  target: string;
  summary: string;
  request_id: string | null;
  run_id: string | null;
}

export interface Database {
  companies: CompaniesTable;
  connectors: ConnectorsTable;
  agents: AgentsTable;
  approvals: ApprovalsTable;
  approval_events: ApprovalEventsTable;
  runs: RunsTable;
  run_events: RunEventsTable;
  activity: ActivityTable;
  api_tokens: ApiTokensTable;
  company_feed: CompanyFeedTable;
  wakes: WakesTable;
  tool_calls: ToolCallsTable;
  run_processes: RunProcessesTable;
  agent_sessions: AgentSessionsTable;
  tasks: TasksTable;
  task_blockers: TaskBlockersTable;
  task_comments: TaskCommentsTable;
  wake_requests: WakeRequestsTable;
  schedules: SchedulesTable;
  budgets: BudgetsTable;
  model_calls: ModelCallsTable;
  operators: OperatorsTable;
  audit_log: AuditLogTable;
  spend_totals: SpendTotalsTable;
  file_contents: FileContentsTable;
  task_files: TaskFilesTable;
}

/** Every table, in dependency order; `counts()` reports them in this order. */
export const TABLES = [
  "companies",
  "connectors",
  "agents",
  "approvals",
  "approval_events",
  "runs",
  "run_events",
  "activity",
  "api_tokens",
  "company_feed",
  "wakes",
  "tool_calls",
  "run_processes",
  "agent_sessions",
  "tasks",
  "task_blockers",
  "task_comments",
  "wake_requests",
  "schedules",
  "budgets",
  "model_calls",
  "operators",
  "audit_log",
  "spend_totals",
  "file_contents",
  "task_files",
] as const satisfies readonly (keyof Database)[];
