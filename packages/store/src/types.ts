// Records and the one store interface. Callers (company, cli, server) only see these shapes, never a
// dialect. The words they are made of (kinds, statuses, settings) are the domain's, from
// @cadre/model, and so is a run's `Usage`: the store depends on model only. Timestamps are ISO-8601
// strings in UTC.
import type {
  AgentRow,
  AgentStatus,
  ApprovalEventRow,
  ApprovalRow,
  CompanyRow,
  RunRow,
  ConnectorRow,
  TaskRow,
  ApprovalStatus,
  ApprovalType,
  CompanySettings,
  DomainEvent,
  DomainEventType,
  HarnessKind,
  RunStatus,
  Usage,
  ScheduleCatchUp,
  TaskStatus,
  Via,
  WakeTrigger,
  WakeRequestStatus,
  WakeStatus,
  BudgetPeriod,
  OperatorRole,
} from "@cadre/model";
import type { CompanySnapshot, CompanySummary, SummaryQuery } from "./snapshot.js";
import type { TeamQuery, TeamSlice } from "./team-queries.js";

export type { CompanySnapshot, CompanySummary, SummaryQuery } from "./snapshot.js";
export type { TeamQuery, TeamSlice } from "./team-queries.js";

// The entities whose schema (and so whose fields) is @cadre/model's; the API's views are built from them.
export type { AgentRow, ApprovalEventRow, ApprovalRow, CompanyRow, ConnectorRow, RunRow, TaskRow };

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

/** Where an activity happened: its company, and the agent and run it concerns, when any. */
export interface ActivityRefs {
  companyId: string;
  agentId: string | null;
  runId: string | null;
}

/** An activity to write: one of the domain events (type and data checked together), with its refs. */
export type NewActivity = ActivityRefs & DomainEvent;

/** A written activity: a domain event (`type` narrows `data`), its refs, id and time. */
export type ActivityRow = { id: number; at: string } & NewActivity;

/**
 * An agent-scoped API token (the secret itself is never stored, only its SHA-256 hash, and never
 * read back). A token acts as its agent, inside its agent's company only.
 */
export interface ApiTokenRow {
  id: string;
  companyId: string;
  agentId: string;
  /** Set when the token was minted for one run (the legacy profile's bash tool); revoked when it ends. */
  runId: string | null;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * One entry of a company's feed: every run event and every activity row of the company, in one id
 * space, in commit order. The feed id is what live subscribers resume from (SSE `Last-Event-ID`).
 */
export type FeedRow =
  | { id: number; companyId: string; kind: "agent_event"; event: RunEventRow }
  | { id: number; companyId: string; kind: "domain_event"; activity: ActivityRow };

/**
 * The result of a side-effecting tool call of a run (a hire, a filed approval), recorded in the
 * transaction that made the side effect: the same call executed again returns it and writes nothing.
 */
export interface ToolCallRow {
  runId: string;
  /** The id the model (or the harness) gave the call; unique within its run. */
  toolCallId: string;
  tool: string;
  /** A hash of the call's arguments: the same id with other arguments is a different call. */
  inputHash: string;
  result: unknown;
  createdAt: string;
}

/**
 * The operating-system process holding a wake (and so its run): its host, pid and start time. The
 * start time tells the owner from a later process that got the same pid; on the owner's own host,
 * a process that is gone is known to be gone at once, without waiting for its lease to run out.
 */
export interface ProcessOwner {
  host: string;
  pid: number;
  /** An opaque token of the process's start time, compared for equality only. */
  started: string;
}

/** The process running a company's due work (`cadre run`), since when, and its lease. */
export interface RunOwnerRow {
  owner: ProcessOwner;
  since: string;
  /** Its lease: renewed by the holder's heartbeat; past it, the holder is taken to be gone. */
  until: string;
}

/**
 * A child process group a run started (the legacy profile's bash commands), recorded while it runs
 * so that whoever recovers the run after its owner died can kill what it left behind.
 */
export interface RunProcessRow {
  runId: string;
  /** The group leader's pid, which is the group's id. */
  pid: number;
  host: string;
  started: string;
  createdAt: string;
}

/** A piece of work: who does it, who asked for it, where it stands, what it produced. */

/** A file attached to a task: a copy of what was handed in, by content hash. */
export interface TaskFileRow {
  id: string;
  taskId: string;
  companyId: string;
  /** Its path relative to the workspace it was attached from, as the agent gave it. */
  name: string;
  /** SHA-256 of the content, hex. */
  sha256: string;
  size: number;
  mediaType: string;
  /** Who attached it: an agent id, or the operator's name. */
  addedBy: string;
  runId: string | null;
  createdAt: string;
}

export interface TaskCommentRow {
  id: string;
  taskId: string;
  companyId: string;
  /** Null for the operator. */
  authorAgentId: string | null;
  /** The operator who wrote it, by name; null for an agent's comment (and comments from before names). */
  authorName: string | null;
  body: string;
  runId: string | null;
  via: Via;
  createdAt: string;
}

export type { WakeRequestStatus };

/**
 * Why an agent is to be woken, decided in code when something changed (OP-1): pending until a wake
 * of that agent takes it (every pending request of the agent at once: coalesced), or dropped when
 * the reason went away first (the task finished, was reassigned).
 */
export interface WakeRequestRow {
  id: string;
  companyId: string;
  agentId: string;
  trigger: WakeTrigger;
  taskId: string | null;
  /** Who caused it: an agent id, "operator" or "system"; never the agent itself. */
  causedBy: string;
  /** What changed, in words (for people; the cue is chosen from the trigger). */
  cause: string;
  status: WakeRequestStatus;
  /** The run that took it. */
  runId: string | null;
  /** Why it was dropped, or why it went back to pending. */
  note: string | null;
  /** How often a run that took it did not finish and gave it back to pending (OP-5). */
  returns: number;
  createdAt: string;
  updatedAt: string;
}

/** An agent's schedule: an interval or a 5-field cron expression, and its next tick. */
export interface ScheduleRow {
  id: string;
  companyId: string;
  agentId: string;
  everySeconds: number | null;
  cron: string | null;
  /** IANA time zone the cron expression is read in. */
  timezone: string;
  catchUp: ScheduleCatchUp;
  nextDueAt: string;
  lastTickAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The harness an agent's native session runs in. */
export type SessionHarness = HarnessKind;

/**
 * An agent's current native session: the one the next wake continues (its id, and for Pi its
 * file), or — with no id — the handoff a fresh one starts from. The JSON fields are the agent
 * core's shapes (a bootstrap, transcript items, the session's prompt, vendor counters), stored as
 * given. `runningRunId` is the run using the session now: the lock a wake and a model switch share.
 */
export interface AgentSessionRow {
  agentId: string;
  companyId: string;
  harness: SessionHarness;
  connectorId: string;
  model: string;
  sessionId: string | null;
  sessionFile: string | null;
  reserveTokens: number | null;
  tokensInWindow: number | null;
  /** The current native session began from a rollover's (or a model switch's) handoff. */
  rolledOver: boolean;
  bootstrap: unknown;
  digest: unknown[];
  prompt: unknown;
  vendorTotals: unknown;
  runningRunId: string | null;
  lastRunId: string | null;
  previousSessionId: string | null;
  createdAt: string;
  lastUsedAt: string;
}

export type { BudgetPeriod };

/** What one run of a company may do (null: no cap of that kind). Enforced in code (MC-2). */
export interface RunCaps {
  maxModelCalls: number | null;
  maxToolCalls: number | null;
  maxTokens: number | null;
  maxUsd: number | null;
  /**
   * Seconds a run may take from its start, whatever it is waiting for (a harness retrying, a model
   * that loops slowly). Absent in caps stored before it existed: the default applies.
   */
  maxWallSeconds?: number | null;
}

/**
 * A budget: the company's own (`agentId` null) or one agent's. Both limits null is the explicit
 * choice of no budget. `runCaps` is kept on the company's row only (null: the defaults).
 */
export interface BudgetRow {
  companyId: string;
  agentId: string | null;
  limitUsd: number | null;
  limitTokens: number | null;
  period: BudgetPeriod;
  /** Fraction of a limit at which a warning is recorded (e.g. 0.8). */
  warnAt: number;
  runCaps: RunCaps | null;
  updatedAt: string;
}

/**
 * One model call in the spend ledger: reserved before the call (its estimated input and maximum
 * output, in tokens and at the model's price), then settled with its usage and cost. `costUsd` is
 * null when the price of the model that served it is unknown (never 0 for unknown).
 */
export interface ModelCallRow {
  id: string;
  companyId: string;
  agentId: string;
  runId: string;
  status: "reserved" | "settled";
  /** The model the call asked for. */
  model: string;
  /** The model the provider says served it (may differ: then the call is priced at this one's price). */
  servedModel: string | null;
  usage: Usage;
  costUsd: number | null;
  reservedTokens: number;
  reservedUsd: number | null;
  createdAt: string;
  settledAt: string | null;
}

export type NewModelCall = Pick<
  ModelCallRow,
  "id" | "companyId" | "agentId" | "runId" | "model" | "reservedTokens" | "reservedUsd"
>;

export interface ModelCallSettlement {
  servedModel: string | null;
  usage: Usage;
  costUsd: number | null;
}

/** Which ledger rows a spend sums: a company's, optionally one agent's or one run's, since a time. */
export interface SpendFilter {
  companyId: string;
  agentId?: string;
  runId?: string;
  /** ISO time; rows created at or after it. */
  since?: string;
}

/**
 * Spend over ledger rows: settled calls as used, plus the reservations of running runs (a run that
 * ended keeps only what it settled).
 */
export interface Spend {
  /** Tokens of settled calls (input + output + cache read + cache write) plus reserved tokens. */
  tokens: number;
  /** USD of settled calls whose price is known, plus reserved USD. */
  usd: number;
  /** Settled calls with no known price (their USD is unknown, not 0). */
  unpricedCalls: number;
  /** Settled calls. */
  calls: number;
  reservedTokens: number;
  reservedUsd: number;
}

export type NewCompany = Omit<CompanyRow, "createdAt">;
export type NewConnector = Omit<ConnectorRow, "createdAt">;
export type NewAgent = Omit<AgentRow, "createdAt">;
export type NewApproval = Omit<ApprovalRow, "createdAt" | "decidedAt" | "decisionNote" | "status">;
export type NewRun = Omit<RunRow, "startedAt" | "endedAt" | "status" | "usage" | "error" | "stopReason">;
export type NewBudget = Omit<BudgetRow, "updatedAt">;
export type NewRunEvent = Omit<RunEventRow, "id" | "at">;
export type NewToolCall = Omit<ToolCallRow, "createdAt">;
export type NewAgentSession = Omit<AgentSessionRow, "createdAt" | "lastUsedAt">;
export type NewApiToken = Omit<ApiTokenRow, "createdAt" | "revokedAt"> & { hash: string };
export type NewRunProcess = Omit<RunProcessRow, "createdAt">;
export type NewTask = Omit<TaskRow, "createdAt" | "updatedAt" | "checkoutRunId" | "deliverableBy"> & {
  deliverableBy?: string | null;
};
/** What an update may change; absent fields stay. */
export type TaskPatch = Partial<
  Pick<TaskRow, "title" | "description" | "status" | "assigneeAgentId" | "deliverable" | "deliverableBy">
>;
/** The file and its bytes; the hash and size are computed by the store from the bytes. */
export type NewTaskFile = Omit<TaskFileRow, "createdAt" | "sha256" | "size"> & { content: Uint8Array };
export type NewTaskComment = Omit<TaskCommentRow, "createdAt" | "authorName"> & {
  authorName?: string | null;
};
export type NewWakeRequest = Omit<
  WakeRequestRow,
  "createdAt" | "updatedAt" | "status" | "runId" | "note" | "returns"
>;
export type NewSchedule = Omit<ScheduleRow, "createdAt" | "updatedAt" | "lastTickAt">;

export type { WakeStatus };

/**
 * A wake taken from the shared queue by a worker (several machines): the run it started and, while
 * it runs, which worker holds it and until when. A redelivered wake never starts a second run; a
 * worker that stops renewing its lease loses the wake to recovery (expireWake).
 */
export interface WakeRow {
  id: string;
  companyId: string;
  agentId: string;
  status: WakeStatus;
  /** The run its latest attempt started; null until one starts. */
  runId: string | null;
  /** Runs started for it: a wake handed back for a retry starts another. */
  attempts: number;
  /** The worker holding it while it runs. */
  workerId: string | null;
  /** ISO time at which the holder's lease runs out unless renewed. */
  leaseUntil: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /** The process holding it while it runs (null once released, and on wakes from before migration 006). */
  owner: ProcessOwner | null;
}

export interface WakeClaim {
  id: string;
  companyId: string;
  agentId: string;
  workerId: string;
  leaseUntil: string;
  /** The process claiming it: on its host, recovery then need not wait for the lease to run out. */
  owner?: ProcessOwner;
}

/** What claimWake found: the wake is now the caller's, or why not (with the wake in the way). */
export type WakeClaimResult =
  | { outcome: "claimed"; wake: WakeRow }
  /** Done or failed already: a redelivery, nothing to run. */
  | { outcome: "finished"; wake: WakeRow }
  /** Running under some worker's lease (live or not yet recovered). */
  | { outcome: "held"; wake: WakeRow }
  /** Its agent runs another wake (given), which must end first. */
  | { outcome: "busy"; wake: WakeRow };

export type { OperatorRole };

/**
 * A named person who signs in: a role, and the companies they are limited to (null:
 * every company). The token is stored as its SHA-256 hash only.
 */
export interface OperatorRow {
  id: string;
  name: string;
  role: OperatorRole;
  companyIds: string[] | null;
  createdAt: string;
  revokedAt: string | null;
}

export type NewOperator = Omit<OperatorRow, "createdAt" | "revokedAt"> & { hash: string };

/** Who made a write: an operator by name, an agent (in a run, or over HTTP), or the system itself. */
export type AuditActor =
  | { type: "operator"; name: string }
  | { type: "agent"; agentId: string; runId: string | null }
  | { type: "system" };

/** One audited write: who, what, on what, the change in words, and the request that made it. */
export interface AuditRow {
  id: number;
  at: string;
  companyId: string | null;
  actorType: AuditActor["type"];
  /** The operator's name, the agent's id, or null for the system. */
  actorId: string | null;
  /** Who, in words: the operator's name, the agent's id (renderers look its name up), "system". */
  actorName: string;
  /** e.g. "approval.decided", "task.updated". */
  action: string;
  /** The record written, e.g. "approval apv_…". */
  target: string;
  /** The change, before → after where there was a before. */
  summary: string;
  requestId: string | null;
  runId: string | null;
}

export interface AuditFilter {
  companyId?: string;
  /** An operator's name or an agent's id (or "system"). */
  actor?: string;
  /** ISO time; rows at or after it. */
  since?: string;
  /** Rows about this record, e.g. "run run_…". */
  target?: string;
  /** Rows after this id (a page's cursor). */
  after?: number;
  limit?: number;
}

/**
 * Where a list's page starts and how long it is. `after` is the sort value (the list's order: creation
 * time, start time, next tick) and id of the last row of the previous page; rows come in (sort value,
 * id) order. Without a page, a list answers every row.
 */
export interface Page {
  after?: { at: string; id: string };
  limit?: number;
}

/** Everything readable and writable, on the store itself or inside one transaction. */
export interface StoreQueries {
  insertCompany(company: NewCompany): Promise<CompanyRow>;
  getCompany(id: string): Promise<CompanyRow | undefined>;
  listCompanies(page?: Page): Promise<CompanyRow[]>;
  updateCompanySettings(id: string, settings: CompanySettings): Promise<void>;
  /**
   * The company with its connectors, active agents and latest CEO strategy approval, read in one
   * statement (the state the company rules decide on); undefined when there is no such company.
   */
  getCompanySnapshot(companyId: string): Promise<CompanySnapshot | undefined>;
  /** The process running the company's due work (`cadre run`), or null when none does. */
  getRunOwner(companyId: string): Promise<RunOwnerRow | null>;
  /**
   * Makes `owner` the one running the company's due work, atomically, only while `expected` still
   * holds it (null: nobody does). False, writing nothing, when someone else got there first.
   */
  claimRunOwner(
    companyId: string,
    owner: ProcessOwner,
    lease: { since: string; until: string },
    expected: RunOwnerRow | null,
  ): Promise<boolean>;
  /** The owner's heartbeat: false when it no longer owns the company's due work. */
  renewRunOwner(companyId: string, owner: ProcessOwner, until: string): Promise<boolean>;
  /** Lets go of the company's due work, if `owner` still holds it. */
  releaseRunOwner(companyId: string, owner: ProcessOwner): Promise<void>;
  /**
   * What a rule needs of a company whatever its team's size, in one statement: connectors, CEO,
   * counts, latest strategy, and optionally one agent by id and the active holder of a name key.
   */
  getCompanySummary(companyId: string, query?: SummaryQuery): Promise<CompanySummary | undefined>;

  /** Inserts the connector (reusing the row of a removed one of the same id). */
  insertConnector(connector: NewConnector): Promise<ConnectorRow>;
  /** Marks it removed: it leaves listConnectors and getConnector; false when there was none. */
  removeConnector(companyId: string, id: string): Promise<boolean>;
  /** Keeps what the endpoint offered for these models (merged over the ones kept); false when there is no such connector. */
  pinModelFingerprints(companyId: string, id: string, fingerprints: Record<string, string>): Promise<boolean>;
  getConnector(companyId: string, id: string): Promise<ConnectorRow | undefined>;
  listConnectors(companyId: string, page?: Page): Promise<ConnectorRow[]>;

  insertAgent(agent: NewAgent): Promise<AgentRow>;
  getAgent(id: string): Promise<AgentRow | undefined>;
  /** Ordered by creation time, then id. */
  listAgents(companyId: string, filter?: { status?: AgentStatus; page?: Page }): Promise<AgentRow[]>;
  /**
   * At most `limit` active agents (by creation time, then id) of the whole team or of one agent's
   * reports, and how many match, in one statement: what a bounded directory reads.
   */
  listTeam(companyId: string, query: TeamQuery): Promise<TeamSlice>;
  setAgentStatus(id: string, status: AgentStatus): Promise<void>;
  /** The model the agent's next session routes to (MC-13; the caller validates it against the connector). */
  /** The agent's model, and its connector when given (a move to another connector). */
  setAgentModel(id: string, model: string, connectorId?: string): Promise<void>;

  /** Inserts the approval as `pending` and its first history row, in one transaction. */
  insertApproval(approval: NewApproval, actor: string): Promise<ApprovalRow>;
  getApproval(id: string): Promise<ApprovalRow | undefined>;
  /** Ordered by creation time, then id. */
  listApprovals(
    companyId: string,
    filter?: { status?: ApprovalStatus; type?: ApprovalType; page?: Page },
  ): Promise<ApprovalRow[]>;
  /**
   * Moves a *pending* approval to `status` and appends a history row, atomically.
   * Returns undefined (and writes nothing) when the approval is missing or no longer pending,
   * so that of several concurrent decisions exactly one wins.
   */
  decideApproval(
    id: string,
    status: Exclude<ApprovalStatus, "pending">,
    note: string | null,
    actor: string,
  ): Promise<ApprovalRow | undefined>;
  listApprovalEvents(approvalId: string): Promise<ApprovalEventRow[]>;

  insertRun(run: NewRun): Promise<RunRow>;
  getRun(id: string): Promise<RunRow | undefined>;
  /** Ordered by start time, then id. */
  listRuns(filter?: {
    companyId?: string;
    agentId?: string;
    status?: RunStatus;
    page?: Page;
  }): Promise<RunRow[]>;
  finishRun(
    id: string,
    end: {
      status: Exclude<RunStatus, "running">;
      usage: Usage;
      error: string | null;
      stopReason?: string | null;
    },
  ): Promise<void>;
  /**
   * The usage of a running run so far (the totals of its completed model calls, written as each one
   * completes, with its usage event); false, writing nothing, when the run is no longer running.
   */
  setRunUsage(id: string, usage: Usage): Promise<boolean>;
  /**
   * Adds usage to an ended run: calls booked after its end (a run lost with its process, reconciled
   * from its harness's own record); false, writing nothing, when the run is missing or still running.
   */
  addEndedRunUsage(id: string, usage: Usage): Promise<boolean>;

  /** Appends events in order, in one transaction; returns them with their ids. */
  appendRunEvents(events: NewRunEvent[]): Promise<RunEventRow[]>;
  listRunEvents(runId: string, afterId?: number): Promise<RunEventRow[]>;
  listCompanyEvents(companyId: string, afterId?: number, limit?: number): Promise<RunEventRow[]>;

  /**
   * Also appends the activity to its company's feed, in the same transaction. A type that is not a
   * domain event, or data that does not fit its type, is refused (a StoreError naming the field)
   * and nothing is written.
   */
  insertActivity(activity: NewActivity): Promise<ActivityRow>;
  /**
   * Several activities and their feed rows, in order, atomically, in as few statements as the
   * dialect allows; one refused activity refuses them all.
   */
  insertActivities(activities: NewActivity[]): Promise<ActivityRow[]>;
  listActivity(companyId: string, filter?: { type?: DomainEventType }): Promise<ActivityRow[]>;

  /**
   * A company's feed (run events and activity in one id space, written by appendRunEvents and
   * insertActivity), in id order, after an id, up to a limit.
   */
  listFeed(companyId: string, afterId?: number, limit?: number): Promise<FeedRow[]>;

  insertApiToken(token: NewApiToken): Promise<ApiTokenRow>;
  /** The token with this hash, revoked or not; undefined when there is none. */
  findApiToken(hash: string): Promise<ApiTokenRow | undefined>;
  /**
   * The token with this hash and the status of its agent, in one indexed read (a request's token
   * check); undefined when there is none.
   */
  findApiTokenWithAgent(hash: string): Promise<(ApiTokenRow & { agentStatus: AgentStatus }) | undefined>;
  /** Ordered by creation time, then id. */
  listApiTokens(agentId: string, page?: Page): Promise<ApiTokenRow[]>;
  /** Revokes the live tokens matched (one by id, all of an agent's, or all minted for a run); returns how many. */
  revokeApiTokens(match: { id: string } | { agentId: string } | { runId: string }): Promise<number>;

  /** Records a child process group of a running run; a ConflictError when (runId, pid) is recorded. */
  insertRunProcess(process: NewRunProcess): Promise<RunProcessRow>;
  /** Forgets one that ended; false when it was not recorded. */
  deleteRunProcess(runId: string, pid: number): Promise<boolean>;
  listRunProcesses(runId: string): Promise<RunProcessRow[]>;

  /** Records a tool call's result; a ConflictError when its (runId, toolCallId) is recorded already. */
  insertToolCall(call: NewToolCall): Promise<ToolCallRow>;
  getToolCall(runId: string, toolCallId: string): Promise<ToolCallRow | undefined>;

  /** Inserts the task with its blockers, atomically. */
  insertTask(task: NewTask): Promise<TaskRow>;
  getTask(id: string): Promise<TaskRow | undefined>;
  /** Ordered by creation time, then id. */
  listTasks(
    companyId: string,
    filter?: {
      assigneeAgentId?: string;
      creatorAgentId?: string;
      statuses?: readonly TaskStatus[];
      page?: Page;
    },
  ): Promise<TaskRow[]>;
  /** The tasks that list `taskId` among their blockers. */
  listTasksBlockedBy(taskId: string): Promise<TaskRow[]>;
  updateTask(id: string, patch: TaskPatch): Promise<TaskRow>;
  /**
   * Checks the task out for a run, atomically: true when it is now (or already was) that run's;
   * false, writing nothing, when another run holds it.
   */
  checkoutTask(id: string, runId: string): Promise<boolean>;
  /** Releases every task the run holds; returns their ids. */
  releaseTaskCheckouts(runId: string): Promise<string[]>;
  insertTaskComment(comment: NewTaskComment): Promise<TaskCommentRow>;
  /**
   * Attaches a copy of a file to a task, atomically: its content kept once by SHA-256, the
   * attachment row naming it. Neither is ever updated: what was handed in stays what it was.
   */
  attachTaskFile(file: NewTaskFile): Promise<TaskFileRow>;
  /** The task's files (no content), ordered by attachment time, then id. */
  listTaskFiles(taskId: string): Promise<TaskFileRow[]>;
  /**
   * One attached file with its bytes; undefined when there is none. A StoreError when the kept
   * bytes no longer hash to the recorded SHA-256.
   */
  getTaskFile(id: string): Promise<(TaskFileRow & { content: Uint8Array }) | undefined>;
  /** Ordered by creation time, then id. */
  listTaskComments(taskId: string): Promise<TaskCommentRow[]>;

  insertWakeRequest(request: NewWakeRequest): Promise<WakeRequestRow>;
  /** Ordered by creation time, then id. */
  listWakeRequests(filter: {
    companyId?: string;
    agentId?: string;
    status?: WakeRequestStatus;
    runId?: string;
    page?: Page;
  }): Promise<WakeRequestRow[]>;
  /** Moves a *pending* request on; false, writing nothing, when it is no longer pending. */
  settleWakeRequest(
    id: string,
    to: { status: "taken"; runId: string } | { status: "dropped"; note: string },
  ): Promise<boolean>;
  /**
   * Gives a request taken by `runId` back to pending (that run did not finish: OP-5), counting the
   * return and saying why in its note; false, writing nothing, when that run no longer holds it —
   * so of several recoverers exactly one returns it.
   */
  returnWakeRequest(id: string, runId: string, note: string): Promise<boolean>;

  /** Creates the agent's schedule, or replaces the one it has. */
  putSchedule(schedule: NewSchedule): Promise<ScheduleRow>;
  getSchedule(agentId: string): Promise<ScheduleRow | undefined>;
  /** A company's schedules, or every company's; by next tick, then id. */
  listSchedules(companyId?: string, page?: Page): Promise<ScheduleRow[]>;
  deleteSchedule(agentId: string): Promise<boolean>;
  /**
   * Takes a tick: moves the schedule from the tick it was due at to its next one, only if it is
   * still due at `dueAt` — of several processes that saw the tick, exactly one takes it.
   */
  advanceSchedule(
    id: string,
    dueAt: string,
    next: { nextDueAt: string; lastTickAt: string },
  ): Promise<boolean>;

  /** The agent's current session, if it has one. */
  getAgentSession(agentId: string): Promise<AgentSessionRow | undefined>;
  /** Writes the agent's session (insert or replace; `createdAt` is kept, `lastUsedAt` is now). */
  putAgentSession(session: NewAgentSession): Promise<AgentSessionRow>;
  /** Forgets the agent's session (the next wake starts fresh); false when it had none. */
  deleteAgentSession(agentId: string): Promise<boolean>;
  /** The sessions of a company's agents, by agent id. */
  listAgentSessions(companyId: string): Promise<AgentSessionRow[]>;

  /** The company's budget (agentId null) or an agent's; undefined when none was set. */
  getBudget(companyId: string, agentId: string | null): Promise<BudgetRow | undefined>;
  /** The company's budget first, then its agents' (by agent id). */
  listBudgets(companyId: string): Promise<BudgetRow[]>;
  /** Writes a budget (insert or replace). */
  putBudget(budget: NewBudget): Promise<BudgetRow>;

  /** Reserves a model call in the ledger (status `reserved`); the caller checked the room in the same transaction. */
  reserveModelCall(call: NewModelCall): Promise<ModelCallRow>;
  /** Settles a reserved call with what it used; false, writing nothing, when it is not reserved (any more). */
  settleModelCall(id: string, settlement: ModelCallSettlement): Promise<boolean>;
  /** Drops the reservations a run never settled (a call that never happened); returns how many. */
  releaseModelCalls(runId: string): Promise<number>;
  /** A run's ledger rows, in order. */
  listModelCalls(runId: string): Promise<ModelCallRow[]>;
  /**
   * Inside a transaction: waits until no other transaction decides on the company's spend, and holds
   * that until this one ends (a check-then-reserve then needs only read committed). False when the
   * company does not exist.
   */
  lockSpend(companyId: string): Promise<boolean>;
  /** Spend over the ledger rows the filter selects (see Spend). */
  spendOf(filter: SpendFilter): Promise<Spend>;

  /**
   * Takes a wake for a worker, atomically: creates it running, or takes it back from `retrying`,
   * under the worker's lease; unless it is finished, already held, or its agent runs another wake.
   */
  claimWake(claim: WakeClaim): Promise<WakeClaimResult>;
  getWake(id: string): Promise<WakeRow | undefined>;
  /** The holder's heartbeat: extends its lease. False, writing nothing, when it no longer holds the wake. */
  renewWake(id: string, workerId: string, leaseUntil: string): Promise<boolean>;
  /** Records the run the holder started (attempts + 1); false when it no longer holds the wake. */
  setWakeRun(id: string, workerId: string, runId: string): Promise<boolean>;
  /** The holder ends the wake, or hands it back for a retry; false when it no longer holds it. */
  releaseWake(
    id: string,
    workerId: string,
    end: { status: Exclude<WakeStatus, "running">; error: string | null },
  ): Promise<boolean>;
  /** Running wakes whose lease ran out before `now` (ISO): their worker is gone or cut off. */
  listExpiredWakes(now: string): Promise<WakeRow[]>;
  /** Every running wake, whatever its lease, by lease end then id. */
  listRunningWakes(): Promise<WakeRow[]>;
  /**
   * Takes a running wake whose lease ran out before `now` from its lost holder: it fails, or goes
   * back to `retrying` when it had started no run (nothing happened). False when it is not (any
   * more) such a wake, so that of several recoverers exactly one wins.
   */
  expireWake(id: string, now: string, error: string): Promise<boolean>;
  /**
   * As expireWake, for a wake whose holder is known to be gone (its process no longer exists on its
   * host) before its lease runs out: false when it is not (any more) running under that holder.
   */
  takeOverWake(id: string, workerId: string, error: string): Promise<boolean>;

  /** A ConflictError when the name (or the token) is taken. */
  insertOperator(operator: NewOperator): Promise<OperatorRow>;
  /** Every operator, revoked ones too, by creation time then id. */
  listOperators(): Promise<OperatorRow[]>;
  /** The operator whose token has this hash, revoked or not. */
  findOperatorByHash(hash: string): Promise<OperatorRow | undefined>;
  /** Revokes an operator (by id or name): its token stops working. False when there is no live one. */
  revokeOperator(idOrName: string): Promise<boolean>;

  /** The audit log (append-only; written only by the store itself, with each audited write), by id. */
  listAudit(filter?: AuditFilter): Promise<AuditRow[]>;
}

export interface TransactionOptions {
  /**
   * "serializable" (the default): fn's reads and writes behave as if no other transaction ran at
   * the same time, which check-then-write rules need; PostgreSQL may run fn again on a conflict.
   * "read committed": fn's writes rely only on their own conditions and row locks (appends under
   * a wake's lease, say); on PostgreSQL such a transaction never fails for a conflict with another.
   * SQLite runs one transaction at a time: both are the same there.
   */
  isolation?: "serializable" | "read committed";
}

/** Told which companies' feeds a commit appended to (see Store.onFeedWrite). */
export type FeedWriteListener = (companyIds: ReadonlySet<string>) => void;

export interface Store extends StoreQueries {
  readonly dialect: "sqlite" | "postgres";
  /**
   * Runs `fn` in one transaction: everything it writes commits together or not at all, as if no
   * other transaction ran at the same time. On PostgreSQL a conflicting transaction is retried, so
   * `fn` may run more than once: it must have no effect outside `tx`.
   */
  transaction<T>(fn: (tx: StoreQueries) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Calls `listener` after every commit that appended to a company's feed (run events, activity),
   * with the companies whose feed grew: a write inside a transaction once the transaction commits,
   * never before (a listener that reads the feed finds the rows), nor when it rolls back. Returns
   * the function that stops the calls. This process's writes only: PostgreSQL also NOTIFYs on the
   * store's feed channel, for every process.
   */
  onFeedWrite(listener: FeedWriteListener): () => void;
  /** Table name → row count; used by tests and `cadre migrate`. */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}
