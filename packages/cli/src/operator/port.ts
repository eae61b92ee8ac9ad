// The operator port: every operation the CLI offers an operator (company, agents, approvals, wakes,
// sessions: a run's context, an agent's kept session and its reset; usage; budgets; tasks,
// schedules and the due-work run) behind one interface, answered in the API's own view types. Two adapters
// implement it — `LocalOperator` (the company functions over the store) and `HttpOperator` (the
// typed API client, `--server URL`) — and each command renders the answer once (render/*.ts), so a
// command reads and prints the same whichever way it reached the company. To add an operation: a
// method here, its two implementations, a renderer, a command (ARCHITECTURE.md, "Adding an
// operator operation").
import type {
  AddConnectorInput,
  AssignTaskInput,
  BudgetReport,
  CloseTaskInput,
  ReviewTaskInput,
  CommentTaskInput,
  CreateTaskInput,
  ScheduleTick,
  TaskResult,
  WaitingReviewView,
  Decision,
  CompanyUsageReport,
  OperatorAction,
  RunUsageReport,
  SetBudgetInput,
  ThreadMessage,
  WakeSession,
} from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import type { FaultName } from "@cadre/core/offline";
import type {
  ApprovalStatus,
  CeoMode,
  PromptProfile,
  RunStatus,
  ScheduleCatchUp,
  TaskStatus,
  Usage,
  WakeTrigger,
} from "@cadre/model";
import type {
  AgentSessionAnswer,
  AgentView,
  ApprovalHistoryView,
  ApprovalView,
  CompanySummaryView,
  CompanyView,
  ConnectorTestView,
  ConnectorView,
  DecisionView,
  KeyView,
  MintedKeyView,
  ModelChangeView,
  ScheduleView,
  SessionResetView,
  TaskDetailView,
  TaskView,
  TerminationView,
} from "@cadre/server/views";
import type { RunInspection } from "./run-inspection.js";

export type { RunInspection } from "./run-inspection.js";

/** `company show`: the company, its CEO's mode and why, connectors with readiness, team, approvals. */
export interface CompanyOverview {
  company: CompanySummaryView;
  ceo: AgentView | undefined;
  ceoMode: CeoMode;
  ceoModeReason: string;
  /** The company tools whose calls can succeed for the CEO in this mode (the API view's modeOffer). */
  toolsInMode: string[];
  /** The company tools the CEO is given in this mode (the API view's modeOffer); the others in it refuse. */
  toolsOffered: string[];
  /** The operator's next steps in this mode (the API view's modeOffer). */
  operatorActions: OperatorAction[];
  connectors: ConnectorView[];
  /** The active agents. */
  agents: AgentView[];
  approvals: ApprovalView[];
}

/** A connector added or removed, with the company it belongs to (for the message). */
export interface ConnectorChange {
  company: CompanySummaryView;
  connector: ConnectorView;
}

/** Whose budget: an agent's own (`agentId`, its company found from it) or a company's. */
export interface BudgetTarget {
  companyId?: string;
  agentId?: string;
}

export interface WakeRequest {
  agentId: string;
  trigger?: WakeTrigger;
  seed?: number;
  profile?: PromptProfile;
  /** Offline connector only, run in this process (local adapter). */
  faults?: FaultName[];
  /** PostgreSQL: run the wake here instead of queueing it (local adapter). */
  inProcess?: boolean;
  /** pg-boss's schema, as the workers were given it (local adapter, PostgreSQL). */
  queueSchema?: string;
}

/** What a wake reports while it goes on; the command renders each as it comes. */
export interface WakeWatcher {
  /** The wake waits in the queue for a worker (PostgreSQL); `joined`: it joined a waiting one. */
  queued(q: { wakeId: string; joined: boolean; agentName: string }): void;
  started(s: {
    runId: string;
    agentName: string;
    mode: string;
    trigger: string;
    profile: string;
    cue: string;
    cueTokens: number;
  }): void;
  event(event: AgentEvent): void;
  /** A line for the operator about how the wake runs (e.g. the API a legacy wake is served). */
  notice(line: string): void;
}

export type WakeOutcome =
  | {
      kind: "ran";
      runId: string;
      agentId: string;
      terminal: RunStatus;
      modeBefore: string;
      modeAfter: CeoMode;
      cue: string;
      cueTokens: number;
      usage: Usage;
      /** The native session the run ran in: its id, whether it continued the agent's, whether it rolled over. */
      session: WakeSession;
      /** With faults: the rehearsal's figures. */
      replays?: number;
      rollovers?: number;
      /** The wake went through the queue. */
      wakeId?: string;
      /** The signal that cancelled it here (SIGINT / SIGTERM). */
      interrupted?: "SIGINT" | "SIGTERM";
      /** Why spend control stopped the run: "budget" or "run_cap". */
      stopReason?: string;
    }
  /** A server queued the wake and no worker started it within its wait: nothing to follow. */
  | { kind: "queued"; wakeId: string; agentId: string };

/** `tasks list`: the company's tasks, of some statuses, of one assignee (an agent id or name). */
export interface TaskQuery {
  companyId?: string;
  statuses?: TaskStatus[];
  assignee?: string;
  page?: ListPage;
}

/** A page of tasks with the company's agents (every one, terminated too), to name them. */
export interface TaskList {
  tasks: TaskView[];
  /** Pass as `--after` for the next page; null when this page is the last. */
  nextCursor: string | null;
  agents: AgentView[];
}

/** `--limit N --after CURSOR`: which page of a list (the next page's cursor comes with each answer). */
export interface ListPage {
  limit?: number;
  after?: string;
}

/** A page of a list, as the API answers it. */
export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

export interface TaskShown {
  task: TaskDetailView;
  agents: AgentView[];
}

export type TaskFileView = TaskDetailView["files"][number];

/** A file handed in with a task, with the bytes of the copy kept. */
export interface TaskFileShown {
  file: TaskFileView;
  bytes: Uint8Array;
}

export interface SchedulesAnswer {
  schedules: ScheduleView[];
  agents: AgentView[];
}

/** `schedules set`: every DURATION or a cron expression (the API's body, the CLI's flags). */
export interface ScheduleInput {
  every?: string;
  cron?: string;
  timezone?: string;
  catchUp?: ScheduleCatchUp;
  start?: string;
}

/** Whose schedule: an agent id, or an active agent's name in the company (`companyId`, else the only one). */
export interface AgentRef {
  ref: string;
  companyId?: string;
}

export interface DueRunRequest {
  /** Only this company's due work (default: every company there). */
  companyId?: string;
  /** Go on while the wakes make more due, until nothing is. */
  untilIdle: boolean;
  /** Stop after this many wakes. */
  maxWakes: number;
  /** Seed of the offline model (each agent's wake: SEED:AGENT_ID). */
  seed?: number;
}

/** What a due-work run reports while it goes on; the command renders each as it comes. */
export interface DueWatcher {
  tick(tick: ScheduleTick, agentName: string): void;
  started(s: {
    runId: string;
    agentName: string;
    trigger: string;
    mode: string;
    cue: string;
    cueTokens: number;
  }): void;
  event(event: AgentEvent, agentName: string): void;
  ended(wake: DueWakeReport): void;
  problem(problem: DueProblemReport): void;
}

/** One run of due work, as it ended. */
export interface DueWakeReport {
  runId: string;
  agentId: string;
  agent: string;
  trigger: string;
  terminal: RunStatus;
  /** The wake requests the run took. */
  requests: { id: string; trigger: string; taskId: string | null }[];
  /** The tasks those requests were about. */
  tasks: string[];
  usage: Usage;
}

export interface DueProblemReport {
  agentId: string;
  agent: string;
  message: string;
}

export interface DueRunReport {
  wakes: DueWakeReport[];
  ticks: ScheduleTick[];
  problems: { agentId: string; message: string }[];
  /** Agents still due when it stopped (their ids), and their names. */
  stillDue: string[];
  stillDueNames: string[];
  /** Runs still under way in other processes when it stopped (a `cadre wake`, a server's). */
  running?: { runId: string; agentId: string; agent: string }[];
  /** The signal that cancelled it here (local adapter). */
  interrupted?: "SIGINT" | "SIGTERM";
}

export interface OperatorPort {
  /** "local": the data directory's (or PostgreSQL's) store; "http": a running API. */
  readonly kind: "local" | "http";
  /** Where the operations go: the data directory, the database or the server's URL (for messages). */
  readonly where: string;

  createCompany(input: { name: string; goal?: string; workspaceRoot?: string }): Promise<CompanyView>;
  /** The company named, or the only one there (several: a usage error listing them). */
  company(companyId?: string): Promise<CompanyView>;
  companyOverview(companyId?: string): Promise<CompanyOverview>;

  /** The company's connectors, their readiness checked now (what was checked, when, what failed). */
  listConnectors(companyId?: string): Promise<ConnectorView[]>;
  addConnector(companyId: string | undefined, input: AddConnectorInput): Promise<ConnectorChange>;
  /** One minimal real request through the connector (a model call of a few tokens; a harness's --version). */
  testConnector(
    companyId: string | undefined,
    connectorId: string,
    model?: string,
  ): Promise<ConnectorTestView>;
  /** Refused while an active agent runs on it, and for the built-in offline connector. */
  removeConnector(companyId: string | undefined, connectorId: string): Promise<ConnectorChange>;

  /** A page of the company's agents (active ones, or `all`), by hire time. */
  listAgents(query: { companyId?: string; all?: boolean; page?: ListPage }): Promise<Paged<AgentView>>;
  agent(agentId: string): Promise<AgentView>;
  /** The model an agent routes to; with `connectorId`, moved to that (ready) connector too. */
  setAgentModel(agentId: string, model: string, connectorId?: string): Promise<ModelChangeView>;
  /** Terminated, its keys revoked (the CEO cannot be removed). */
  /** Terminates the agent; its open tasks go back to their creators (or the CEO), who are woken. */
  terminateAgent(agentId: string): Promise<TerminationView>;
  listKeys(agentId: string): Promise<KeyView[]>;
  mintKey(agentId: string, label?: string): Promise<MintedKeyView>;
  revokeKey(agentId: string, keyId: string): Promise<KeyView>;

  /** A page of the company's approvals, oldest first. */
  listApprovals(query: {
    companyId?: string;
    status?: ApprovalStatus;
    page?: ListPage;
  }): Promise<Paged<ApprovalView>>;
  /** One approval with its text, decision, note and history (who filed it, who decided). */
  approval(approvalId: string): Promise<ApprovalHistoryView>;
  decide(approvalId: string, decision: Decision, note?: string): Promise<DecisionView>;

  wake(request: WakeRequest, watch: WakeWatcher): Promise<WakeOutcome>;
  inspectRun(runId: string): Promise<RunInspection>;
  /** The agent's kept session across wakes (null when none is kept). */
  agentSession(agentId: string): Promise<AgentSessionAnswer>;
  /** Forget the agent's kept session: its next wake starts fresh (refused while a run holds it, unless `force`). */
  resetSession(agentId: string, options: { force: boolean }): Promise<SessionResetView>;
  /** Per company (the one named, else every company there): totals, per agent, per run. */
  usage(query: { companyId?: string }): Promise<CompanyUsageReport[]>;
  runUsage(runId: string): Promise<RunUsageReport>;

  /**
   * A company's budget (the one named, the agent's, else the only one there) with its agents' own
   * budgets and run caps, or an agent's own budget (`agentId`).
   */
  budget(target: BudgetTarget): Promise<BudgetReport>;
  /** Changes the fields given (the others keep their value); refused input changes nothing. */
  setBudget(target: BudgetTarget, input: SetBudgetInput): Promise<BudgetReport>;

  listTasks(query: TaskQuery): Promise<TaskList>;
  /** One task with its comments, history and the wakes it caused. */
  task(taskId: string): Promise<TaskShown>;
  /** The operator creates, assigns, comments on and closes tasks; each says whom it wakes. */
  createTask(companyId: string | undefined, input: CreateTaskInput): Promise<TaskResult>;
  assignTask(input: AssignTaskInput): Promise<TaskResult>;
  commentOnTask(input: CommentTaskInput): Promise<TaskResult>;
  closeTask(input: CloseTaskInput): Promise<TaskResult>;
  /** The operator accepts a task handed in, or sends it back with reasons. */
  reviewTask(input: ReviewTaskInput): Promise<TaskResult>;
  /** The company's tasks handed in, each with its reviewer: the operator's are its inbox's. */
  waitingReviews(companyId?: string): Promise<WaitingReviewView[]>;
  /** A file handed in with the task, by its id or its name (the latest copy of that name). */
  taskFile(taskId: string, ref: string): Promise<TaskFileShown>;

  listSchedules(companyId?: string): Promise<SchedulesAnswer>;
  /** One schedule per agent: set replaces it. */
  setSchedule(agent: AgentRef, input: ScheduleInput): Promise<{ agent: AgentView; schedule: ScheduleView }>;
  removeSchedule(agent: AgentRef): Promise<{ agent: AgentView; removed: boolean }>;

  /**
   * The due work: schedules ticked and each agent with work waiting woken (locally: here, one
   * at a time; over HTTP: by the server, each run followed from its stored events in turn).
   */
  runDue(request: DueRunRequest, watch: DueWatcher): Promise<DueRunReport>;

  /** The company thread with the CEO (`cadre chat`): messages after `after`, oldest first. */
  messages(
    companyId: string | undefined,
    after?: number,
  ): Promise<{ companyId: string; items: ThreadMessage[] }>;
  /** The operator writes to the CEO: it wakes the CEO (operator_message). */
  sendMessage(
    companyId: string | undefined,
    text: string,
  ): Promise<{ message: ThreadMessage; wakes: string[] }>;

  close(): Promise<void>;
}

/** The file `ref` names among a task's files: its id, else the latest copy of that name; undefined when none. */
export function pickTaskFile(files: readonly TaskFileView[], ref: string): TaskFileView | undefined {
  return files.find((f) => f.id === ref) ?? files.filter((f) => f.name === ref).pop();
}

export function noSuchFile(taskId: string, ref: string, files: readonly TaskFileView[]): string {
  return `tasks file: task ${taskId} has no file "${ref}"; ${files.length === 0 ? "it has no files" : `its files: ${[...new Set(files.map((f) => f.name))].join(", ")}`}`;
}

/** The tasks a run's wake requests were about, each once. */
export function tasksOf(requests: readonly { taskId: string | null }[]): string[] {
  return [...new Set(requests.map((r) => r.taskId).filter((t): t is string => t !== null))];
}
