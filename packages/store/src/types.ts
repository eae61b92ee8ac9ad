// Records and the one store interface. Dependency-free: callers (company, cli, server) only see
// these shapes, never a dialect. Timestamps are ISO-8601 strings in UTC.

export type ConnectorKind = "offline" | "anthropic" | "openai" | "openai-compatible" | "claude-code" | "codex";
export type Department = "engineering" | "product" | "design" | "marketing" | "sales" | "operations" | "legal" | "finance";
export type AgentStatus = "active" | "terminated";
/** Which path created a record: a model-facing tool, the legacy HTTP route, or the system itself. */
export type Via = "tool" | "http" | "system";
export type ApprovalType = "approve_ceo_strategy" | "hire_agent";
export type ApprovalStatus = "pending" | "approved" | "rejected" | "revision_requested";
export type RunStatus = "running" | "done" | "failed" | "cancelled";
export type PromptProfile = "semantic" | "legacy";

export interface CompanySettings {
  /** Upper bound on active agents, CEO included. */
  maxTeamSize: number;
  /** When true, hires by non-CEO agents go through a `hire_agent` approval. */
  requireHireApproval: boolean;
  /** Prompt profile used for wakes unless a wake overrides it (C4-7). */
  profile: PromptProfile;
}

export interface CompanyRow {
  id: string;
  name: string;
  goal: string;
  settings: CompanySettings;
  createdAt: string;
}

export interface ConnectorRow {
  companyId: string;
  /** Unique within its company, readable by models (e.g. "offline", "anthropic"). */
  id: string;
  kind: ConnectorKind;
  label: string;
  enabledModels: string[];
  /** Non-secret configuration (base URL, env var names, seed). Secrets are never stored here. */
  config: Record<string, unknown>;
  createdAt: string;
}

export interface AgentRow {
  id: string;
  companyId: string;
  name: string;
  role: string;
  description: string;
  department: Department | null;
  connectorId: string;
  model: string;
  reportsTo: string | null;
  isCeo: boolean;
  status: AgentStatus;
  via: Via;
  createdAt: string;
}

export interface ApprovalRow {
  id: string;
  companyId: string;
  type: ApprovalType;
  title: string;
  payload: string;
  status: ApprovalStatus;
  filedByAgentId: string | null;
  via: Via;
  decisionNote: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** One status change of an approval (the history). `fromStatus` is null for the filing itself. */
export interface ApprovalEventRow {
  id: number;
  approvalId: string;
  fromStatus: ApprovalStatus | null;
  toStatus: ApprovalStatus;
  note: string | null;
  actor: string;
  at: string;
}

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface RunRow {
  id: string;
  companyId: string;
  agentId: string;
  /** What woke the agent: "start_team_building" | "approval_decided" | "routine" | … */
  trigger: string;
  mode: string;
  profile: PromptProfile;
  cue: string;
  status: RunStatus;
  usage: RunUsage;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface RunEventRow {
  /** Global, strictly increasing across the store (usable as an SSE id). */
  id: number;
  runId: string;
  companyId: string;
  /** Position inside its run, from 0. */
  seq: number;
  type: string;
  data: unknown;
  at: string;
}

export interface ActivityRow {
  id: number;
  companyId: string;
  agentId: string | null;
  runId: string | null;
  /** e.g. "agent.hired", "approval.filed", "approval.decided", "company.created" */
  type: string;
  data: unknown;
  at: string;
}

export type NewCompany = Omit<CompanyRow, "createdAt">;
export type NewConnector = Omit<ConnectorRow, "createdAt">;
export type NewAgent = Omit<AgentRow, "createdAt">;
export type NewApproval = Omit<ApprovalRow, "createdAt" | "decidedAt" | "decisionNote" | "status">;
export type NewRun = Omit<RunRow, "startedAt" | "endedAt" | "status" | "usage" | "error">;
export type NewRunEvent = Omit<RunEventRow, "id" | "at">;
export type NewActivity = Omit<ActivityRow, "id" | "at">;

/** Everything readable and writable, on the store itself or inside one transaction. */
export interface StoreQueries {
  insertCompany(company: NewCompany): Promise<CompanyRow>;
  getCompany(id: string): Promise<CompanyRow | undefined>;
  listCompanies(): Promise<CompanyRow[]>;
  updateCompanySettings(id: string, settings: CompanySettings): Promise<void>;

  insertConnector(connector: NewConnector): Promise<ConnectorRow>;
  getConnector(companyId: string, id: string): Promise<ConnectorRow | undefined>;
  listConnectors(companyId: string): Promise<ConnectorRow[]>;

  insertAgent(agent: NewAgent): Promise<AgentRow>;
  getAgent(id: string): Promise<AgentRow | undefined>;
  /** Ordered by creation time, then id. */
  listAgents(companyId: string, filter?: { status?: AgentStatus }): Promise<AgentRow[]>;
  setAgentStatus(id: string, status: AgentStatus): Promise<void>;

  /** Inserts the approval as `pending` and its first history row, in one transaction. */
  insertApproval(approval: NewApproval, actor: string): Promise<ApprovalRow>;
  getApproval(id: string): Promise<ApprovalRow | undefined>;
  /** Ordered by creation time, then id. */
  listApprovals(companyId: string, filter?: { status?: ApprovalStatus; type?: ApprovalType }): Promise<ApprovalRow[]>;
  /**
   * Moves a *pending* approval to `status` and appends a history row, atomically.
   * Returns undefined (and writes nothing) when the approval is missing or no longer pending,
   * so that of several concurrent decisions exactly one wins.
   */
  decideApproval(id: string, status: Exclude<ApprovalStatus, "pending">, note: string | null, actor: string): Promise<ApprovalRow | undefined>;
  listApprovalEvents(approvalId: string): Promise<ApprovalEventRow[]>;

  insertRun(run: NewRun): Promise<RunRow>;
  getRun(id: string): Promise<RunRow | undefined>;
  listRuns(filter?: { companyId?: string; agentId?: string }): Promise<RunRow[]>;
  finishRun(id: string, end: { status: Exclude<RunStatus, "running">; usage: RunUsage; error: string | null }): Promise<void>;

  /** Appends events in order, in one transaction; returns them with their ids. */
  appendRunEvents(events: NewRunEvent[]): Promise<RunEventRow[]>;
  listRunEvents(runId: string, afterId?: number): Promise<RunEventRow[]>;
  listCompanyEvents(companyId: string, afterId?: number, limit?: number): Promise<RunEventRow[]>;

  insertActivity(activity: NewActivity): Promise<ActivityRow>;
  listActivity(companyId: string, filter?: { type?: string }): Promise<ActivityRow[]>;
}

export interface Store extends StoreQueries {
  readonly dialect: "sqlite" | "postgres";
  /** Runs `fn` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(fn: (tx: StoreQueries) => Promise<T>): Promise<T>;
  /** Table name → row count; used by tests and `cadre migrate`. */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}
