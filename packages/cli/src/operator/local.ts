// The operator port over the store (the data directory's SQLite file, or PostgreSQL): each
// operation is a @cadre/company function or a store read, answered in the API's view types
// (@cadre/server/views) so that it prints exactly what the same operation over HTTP prints.
import {
  addConnector,
  type AddConnectorInput,
  assignTask,
  type AssignTaskInput,
  closeTask,
  reviewTask,
  type CloseTaskInput,
  type ReviewTaskInput,
  commentOnTask,
  type CommentTaskInput,
  createTask,
  type CreateTaskInput,
  loadTaskDetail,
  removeSchedule,
  listMessages,
  postOperatorMessage,
  checkMessageInput,
  runDue,
  takeRunOwnership,
  setSchedule,
  type DueWake,
  type TaskResult,
  taskView,
  waitingReviews,
  wakeIfDue,
  budgetReport,
  setBudget,
  type SetBudgetInput,
  companyUsageReport,
  createCompany,
  refreshReadiness,
  removeConnector,
  sharedProbes,
  testConnector,
  decideApproval,
  type Decision,
  loadCompanyState,
  lossOf,
  mintAgentToken,
  profileDriver,
  resetAgentSession,
  runUsageReport,
  setAgentModel,
  terminateAgent,
  wakeAgent,
} from "@cadre/company";
import { type AgentEvent, InternalError, NotFoundError, UserInputError } from "@cadre/core";
import type { ApprovalStatus } from "@cadre/model";
import {
  agentSessionView,
  agentView,
  approvalHistoryView,
  approvalView,
  companySummaryView,
  companyView,
  connectorView,
  decisionView,
  keyView,
  modelChangeView,
  scheduleView,
  terminationView,
} from "@cadre/server/views";
import { type AgentRow, redactUrl, type Store } from "@cadre/store";
import { withProfile } from "../profiles/wake-profile.js";
import { pickCompany, recoverInterruptedRuns, storeEnv } from "../context.js";
import type { CliIO } from "../io.js";
import { UsageError } from "../io.js";
import { cancelOnSignals } from "../signals.js";
import { queuedWake } from "../commands/wake-queued.js";
import type {
  AgentRef,
  BudgetTarget,
  CompanyOverview,
  DueRunReport,
  DueRunRequest,
  DueWakeReport,
  DueWatcher,
  OperatorPort,
  ScheduleInput,
  TaskQuery,
  WakeOutcome,
  WakeRequest,
  WakeWatcher,
  ListPage,
} from "./port.js";
import { pageOfRows, storePage } from "./pages.js";
import { noSuchFile, pickTaskFile, tasksOf } from "./port.js";
import { runInspection } from "./run-inspection.js";

export interface LocalData {
  store: Store;
  dataDir: string;
  /** Set when the store is PostgreSQL's. */
  databaseUrl: string | undefined;
}

export class LocalOperator implements OperatorPort {
  readonly kind = "local";
  readonly where: string;
  private readonly store: Store;

  constructor(
    private readonly data: LocalData,
    private readonly io: CliIO,
  ) {
    this.store = data.store;
    this.where = data.databaseUrl ? redactUrl(data.databaseUrl) : data.dataDir;
  }

  private async companyRow(companyId: string | undefined) {
    return pickCompany(this.store, companyId, this.data.dataDir);
  }

  private async agentRow(agentId: string) {
    const agent = await this.store.getAgent(agentId);
    if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
    return agent;
  }

  async createCompany(input: { name: string; goal?: string; workspaceRoot?: string }) {
    const { workspaceRoot, ...named } = input;
    const row = await createCompany(this.store, {
      ...named,
      ...(workspaceRoot !== undefined ? { settings: { workspaceRoot } } : {}),
      env: this.io.env,
    });
    return companyView(row, await loadCompanyState(this.store, row.id), this.io.env, sharedProbes);
  }

  async company(companyId?: string) {
    const row = await this.companyRow(companyId);
    return companyView(row, await loadCompanyState(this.store, row.id), this.io.env, sharedProbes);
  }

  async companyOverview(companyId?: string): Promise<CompanyOverview> {
    const row = await this.companyRow(companyId);
    const state = await loadCompanyState(this.store, row.id);
    const [connectors, agents, approvals] = await Promise.all([
      this.store.listConnectors(row.id),
      this.store.listAgents(row.id, { status: "active" }),
      this.store.listApprovals(row.id),
    ]);
    // Readiness answers the real question (C4-9): the probes run now, outside any transaction.
    await refreshReadiness(connectors, this.io.env, sharedProbes);
    const view = companyView(row, state, this.io.env, sharedProbes);
    return {
      company: companySummaryView(row),
      ceo: agents.map(agentView).find((a) => a.id === view.ceoAgentId),
      ceoMode: view.ceoMode,
      ceoModeReason: view.ceoModeReason,
      toolsInMode: view.toolsInMode,
      toolsOffered: view.toolsOffered,
      operatorActions: view.operatorActions,
      connectors: connectors.map((c) => connectorView(c, this.io.env, sharedProbes)),
      agents: agents.map(agentView),
      approvals: approvals.map(approvalView),
    };
  }

  async listConnectors(companyId?: string) {
    const company = await this.companyRow(companyId);
    const connectors = await this.store.listConnectors(company.id);
    await refreshReadiness(connectors, this.io.env, sharedProbes);
    return connectors.map((c) => connectorView(c, this.io.env, sharedProbes));
  }

  async addConnector(companyId: string | undefined, input: AddConnectorInput) {
    const company = await this.companyRow(companyId);
    const row = await addConnector(this.store, company.id, input, { env: this.io.env, probes: sharedProbes });
    return { company: companySummaryView(company), connector: connectorView(row, this.io.env, sharedProbes) };
  }

  async testConnector(companyId: string | undefined, connectorId: string, model?: string) {
    const company = await this.companyRow(companyId);
    return testConnector(this.store, company.id, connectorId, {
      env: this.io.env,
      probes: sharedProbes,
      ...(model !== undefined ? { model } : {}),
    });
  }

  async removeConnector(companyId: string | undefined, connectorId: string) {
    const company = await this.companyRow(companyId);
    const removed = await removeConnector(this.store, company.id, connectorId);
    return {
      company: companySummaryView(company),
      connector: connectorView(removed, this.io.env, sharedProbes),
    };
  }

  async listAgents(query: { companyId?: string; all?: boolean; page?: ListPage }) {
    const company = await this.companyRow(query.companyId);
    const page = storePage(query.page);
    const rows = await this.store.listAgents(company.id, {
      ...(query.all ? {} : { status: "active" as const }),
      page: page.store,
    });
    const shown = pageOfRows(rows, page.limit, (a) => a.createdAt);
    return { items: shown.rows.map(agentView), nextCursor: shown.nextCursor };
  }

  async agent(agentId: string) {
    return agentView(await this.agentRow(agentId));
  }

  async setAgentModel(agentId: string, model: string, connectorId?: string) {
    // No live session in this process: the row changes, and the agent's next session routes to it.
    return modelChangeView(
      await setAgentModel(this.store, {
        agentId,
        model,
        ...(connectorId !== undefined ? { connectorId } : {}),
        env: this.io.env,
      }),
    );
  }

  async terminateAgent(agentId: string) {
    return terminationView(await terminateAgent(this.store, agentId, { dataDir: this.data.dataDir }));
  }

  async listKeys(agentId: string) {
    await this.agentRow(agentId);
    return (await this.store.listApiTokens(agentId)).map(keyView);
  }

  async mintKey(agentId: string, label?: string) {
    const { token, row } = await mintAgentToken(this.store, { agentId, label: label ?? "" });
    return { ...keyView(row), token };
  }

  async revokeKey(agentId: string, keyId: string) {
    await this.agentRow(agentId);
    const key = (await this.store.listApiTokens(agentId)).find((k) => k.id === keyId);
    if (!key) throw new NotFoundError(`key ${keyId} of agent ${agentId} not found`);
    await this.store.revokeApiTokens({ id: key.id });
    const revoked = (await this.store.listApiTokens(agentId)).find((k) => k.id === keyId);
    if (!revoked) throw new InternalError(`revoked key ${keyId} is not in the store`);
    return keyView(revoked);
  }

  async listApprovals(query: { companyId?: string; status?: ApprovalStatus; page?: ListPage }) {
    const company = await this.companyRow(query.companyId);
    const page = storePage(query.page);
    const list = await this.store.listApprovals(company.id, {
      ...(query.status ? { status: query.status } : {}),
      page: page.store,
    });
    const shown = pageOfRows(list, page.limit, (a) => a.createdAt);
    return { items: shown.rows.map(approvalView), nextCursor: shown.nextCursor };
  }

  async approval(approvalId: string) {
    const approval = await this.store.getApproval(approvalId);
    if (!approval) throw new NotFoundError(`approval ${approvalId} not found`);
    return approvalHistoryView(approval, await this.store.listApprovalEvents(approvalId));
  }

  async decide(approvalId: string, decision: Decision, note?: string) {
    return decisionView(
      await decideApproval(this.store, approvalId, decision, note ?? null, "operator", {
        env: this.io.env,
        probes: sharedProbes,
      }),
    );
  }

  async wake(request: WakeRequest, watch: WakeWatcher): Promise<WakeOutcome> {
    const { store, dataDir, databaseUrl } = this.data;
    const io = this.io;
    if (databaseUrl !== undefined && !request.inProcess) {
      // What only this process can do is refused rather than silently run elsewhere without it.
      if (request.faults)
        throw new UsageError(
          "wake: --faults rehearses failures in this process; on PostgreSQL add --in-process (queued wakes run on the workers)",
        );
      if (request.profile !== undefined && profileDriver(request.profile).needsApi)
        throw new UsageError(
          `wake: --profile ${request.profile} serves the API for the wake from this process; on PostgreSQL add --in-process`,
        );
      return queuedWake({ store, url: databaseUrl, ...request }, watch, io);
    }
    await recoverInterruptedRuns(store, io);
    const agent = await store.getAgent(request.agentId);
    const signals = cancelOnSignals(io);
    const result = await withProfile(
      { store, dataDir, io, agentId: request.agentId, profile: request.profile, notice: watch.notice },
      (byProfile) =>
        wakeAgent({
          ...byProfile,
          store,
          agentId: request.agentId,
          dataDir,
          env: storeEnv(io.env, databaseUrl),
          ...(request.trigger ? { trigger: request.trigger } : {}),
          ...(request.seed !== undefined ? { seed: request.seed } : {}),
          ...(request.faults ? { faults: request.faults } : {}),
          signal: signals.signal,
          onStart: ({ run, cue, cueTokens, mode }) =>
            watch.started({
              runId: run.id,
              agentName: agent?.name ?? "agent",
              mode,
              trigger: run.trigger,
              profile: run.profile,
              cue,
              cueTokens,
            }),
          onEvent: (event: AgentEvent) => watch.event(event),
        }),
    ).finally(() => signals.dispose());
    const interrupted = signals.received();
    if (interrupted && result.terminal === "cancelled")
      io.err(`run ${result.run.id} cancelled by ${interrupted}; usage recorded\n`);
    return {
      kind: "ran",
      runId: result.run.id,
      agentId: request.agentId,
      terminal: result.terminal,
      modeBefore: result.modeBefore,
      modeAfter: result.modeAfter,
      cue: result.cue,
      cueTokens: result.cueTokens,
      usage: result.usage,
      session: result.session,
      replays: result.replays,
      rollovers: result.rollovers,
      ...(interrupted ? { interrupted } : {}),
      ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    };
  }

  async inspectRun(runId: string) {
    const run = await this.store.getRun(runId);
    if (!run) throw new NotFoundError(`run ${runId} not found`);
    const events = (await this.store.listRunEvents(runId)).map((r) => r.data as AgentEvent);
    // A run still marked running whose process is gone is reported as interrupted (read only: the
    // next command that runs wakes records its end).
    let lost: string | undefined;
    if (run.status === "running") {
      const wake = (await this.store.listRunningWakes()).find((w) => w.runId === run.id);
      lost = wake ? lossOf(wake)?.detail : "no process holds it";
    }
    return runInspection(run, events, lost);
  }

  async agentSession(agentId: string) {
    const agent = await this.agentRow(agentId);
    const row = await this.store.getAgentSession(agent.id);
    return { agentId: agent.id, session: row ? agentSessionView(row) : null };
  }

  async resetSession(agentId: string, options: { force: boolean }) {
    // A run whose process died still holds the session until it is recovered: recover it first
    // (a server does this in its own sweep).
    await recoverInterruptedRuns(this.store, this.io);
    const { agent, reset, previous } = await resetAgentSession(this.store, agentId, options);
    return { agentId: agent.id, reset, previousSessionId: previous?.sessionId ?? null };
  }

  async usage(query: { companyId?: string }) {
    const ids = query.companyId ? [query.companyId] : (await this.store.listCompanies()).map((c) => c.id);
    const reports = [];
    for (const id of ids) reports.push(await companyUsageReport(this.store, id));
    return reports;
  }

  runUsage(runId: string) {
    return runUsageReport(this.store, runId);
  }

  /** The company and agent a budget operation is about (the agent's company; else the only one). */
  private async budgetTarget(target: BudgetTarget) {
    if (target.agentId === undefined) return { companyId: (await this.companyRow(target.companyId)).id };
    const agent = await this.agentRow(target.agentId);
    if (target.companyId !== undefined && target.companyId !== agent.companyId)
      throw new UsageError(
        `budgets: agent ${agent.id} belongs to company ${agent.companyId}, not ${target.companyId}`,
      );
    return { companyId: agent.companyId, agentId: agent.id };
  }

  async budget(target: BudgetTarget) {
    return budgetReport(this.store, await this.budgetTarget(target));
  }

  async setBudget(target: BudgetTarget, input: SetBudgetInput) {
    return setBudget(this.store, await this.budgetTarget(target), input);
  }

  async listTasks(query: TaskQuery) {
    const company = await this.companyRow(query.companyId);
    const agents = await this.store.listAgents(company.id);
    let assignee: string | undefined;
    if (query.assignee !== undefined) {
      const a = agents.find((x) => x.id === query.assignee || x.name === query.assignee);
      if (!a)
        throw new UsageError(
          `tasks list: --assignee "${query.assignee}" is not an agent of ${company.name}; see cadre agents list`,
        );
      assignee = a.id;
    }
    const page = storePage(query.page);
    const tasks = await this.store.listTasks(company.id, {
      ...(assignee ? { assigneeAgentId: assignee } : {}),
      ...(query.statuses ? { statuses: query.statuses } : {}),
      page: page.store,
    });
    const shown = pageOfRows(tasks, page.limit, (t) => t.createdAt);
    return { tasks: shown.rows.map(taskView), nextCursor: shown.nextCursor, agents: agents.map(agentView) };
  }

  async task(taskId: string) {
    const task = await loadTaskDetail(this.store, taskId);
    if (!task) throw new UsageError(`tasks show: task ${taskId} not found (see \`cadre tasks list\`)`);
    return { task, agents: (await this.store.listAgents(task.companyId)).map(agentView) };
  }

  async waitingReviews(companyId?: string) {
    const company = await this.companyRow(companyId);
    const { rows, view } = await waitingReviews(this.store, company.id);
    return Promise.all(rows.map(view));
  }

  async taskFile(taskId: string, ref: string) {
    const { task } = await this.task(taskId);
    const file = pickTaskFile(task.files, ref);
    if (!file) throw new UsageError(noSuchFile(taskId, ref, task.files));
    const kept = await this.store.getTaskFile(file.id);
    if (!kept) throw new NotFoundError(`tasks file: file ${file.id} of task ${taskId} is gone`);
    return { file, bytes: kept.content };
  }

  /** The operator's actor in the task's company. */
  private async taskActor(taskId: string) {
    const task = await this.store.getTask(taskId);
    if (!task) throw new UsageError(`task ${taskId} not found (see \`cadre tasks list\`)`);
    return { ...OPERATOR, companyId: task.companyId };
  }

  async createTask(companyId: string | undefined, input: CreateTaskInput) {
    const company = await this.companyRow(companyId);
    return applied(await createTask(this.store, { ...OPERATOR, companyId: company.id }, input));
  }

  async assignTask(input: AssignTaskInput) {
    return applied(await assignTask(this.store, await this.taskActor(input.taskId), input));
  }

  async commentOnTask(input: CommentTaskInput) {
    return applied(await commentOnTask(this.store, await this.taskActor(input.taskId), input));
  }

  async closeTask(input: CloseTaskInput) {
    return applied(await closeTask(this.store, await this.taskActor(input.taskId), input));
  }

  async reviewTask(input: ReviewTaskInput) {
    return applied(await reviewTask(this.store, await this.taskActor(input.taskId), input));
  }

  async listSchedules(companyId?: string) {
    const company = await this.companyRow(companyId);
    const [schedules, agents] = await Promise.all([
      this.store.listSchedules(company.id),
      this.store.listAgents(company.id),
    ]);
    return { schedules: schedules.map(scheduleView), agents: agents.map(agentView) };
  }

  /** An agent by id, else an active agent of the company by name. */
  private async scheduledAgent({ ref, companyId }: AgentRef): Promise<AgentRow> {
    const byId = await this.store.getAgent(ref);
    if (byId) return byId;
    const company = await this.companyRow(companyId);
    const byName = (await this.store.listAgents(company.id, { status: "active" })).find(
      (a) => a.name === ref,
    );
    if (!byName)
      throw new UsageError(
        `schedules: "${ref}" is not an agent id or the name of an active agent; see cadre agents list`,
      );
    return byName;
  }

  async setSchedule(ref: AgentRef, input: ScheduleInput) {
    const agent = await this.scheduledAgent(ref);
    const row = await setSchedule(this.store, { agentId: agent.id, ...input });
    return { agent: agentView(agent), schedule: scheduleView(row) };
  }

  async removeSchedule(ref: AgentRef) {
    const agent = await this.scheduledAgent(ref);
    return { agent: agentView(agent), removed: await removeSchedule(this.store, agent.id) };
  }

  async messages(companyId: string | undefined, after?: number) {
    const company = await this.companyRow(companyId);
    const { items } = await listMessages(this.store, company.id, {
      ...(after !== undefined ? { after } : {}),
      limit: Number.MAX_SAFE_INTEGER,
    });
    return { companyId: company.id, items };
  }

  async sendMessage(companyId: string | undefined, text: string) {
    const company = await this.companyRow(companyId);
    return postOperatorMessage(this.store, company.id, checkMessageInput({ text }));
  }

  async runDue(request: DueRunRequest, watch: DueWatcher): Promise<DueRunReport> {
    const { store, dataDir, databaseUrl } = this.data;
    const io = this.io;
    if (request.companyId !== undefined && !(await store.getCompany(request.companyId)))
      throw new UsageError(`run: company ${request.companyId} not found in ${dataDir}`);
    const companies = request.companyId
      ? [request.companyId]
      : (await store.listCompanies()).map((c) => c.id);
    // One `cadre run` per company at a time: a second one says who runs it (RunOwnedError), and
    // never races the first for its wakes nor reports "nothing is due" while it works.
    const ownership = await takeRunOwnership(store, companies);
    const signals = cancelOnSignals(io);
    try {
      await recoverInterruptedRuns(store, io);
      // Every agent's name known before a tick or a problem names it (a hire's too, when it comes).
      const names = new Map<string, string>();
      for (const id of companies) for (const a of await store.listAgents(id)) names.set(a.id, a.name);
      const name = async (agentId: string) => {
        if (!names.has(agentId)) names.set(agentId, (await store.getAgent(agentId))?.name ?? agentId);
        return names.get(agentId) as string;
      };
      const report = await runDue({
        store,
        ...(request.companyId ? { companyId: request.companyId } : {}),
        untilIdle: request.untilIdle,
        maxWakes: request.maxWakes,
        signal: signals.signal,
        wake: async (agentId, checked) => {
          const who = await name(agentId);
          return wakeIfDue({
            store,
            agentId,
            checked,
            dataDir,
            env: storeEnv(io.env, databaseUrl),
            signal: signals.signal,
            ...(request.seed !== undefined ? { seed: `${request.seed}:${agentId}` } : {}),
            onStart: ({ run, cue, cueTokens }) =>
              watch.started({
                runId: run.id,
                agentName: who,
                trigger: run.trigger,
                mode: run.mode,
                cue,
                cueTokens,
              }),
            onEvent: (event) => watch.event(event, who),
          });
        },
        onWake: (w) => {
          watch.ended(dueWakeReport(w, names.get(w.agentId) ?? w.agentId));
          // A signal cancelled it: said on stderr, as `cadre wake` and `cadre demo` say it.
          const received = signals.received();
          if (received && w.result.terminal === "cancelled")
            io.err(`run ${w.result.run.id} cancelled by ${received}; usage recorded\n`);
        },
        onTick: (t) => watch.tick(t, names.get(t.agentId) ?? t.agentId),
        onProblem: (p) => watch.problem({ ...p, agent: names.get(p.agentId) ?? p.agentId }),
      });
      const stillDueNames = await Promise.all(report.stillDue.map(name));
      const interrupted = signals.received();
      // Idle means nothing is due and nothing runs: a wake another process runs (`cadre wake`, a
      // server) may make more work due when it ends.
      const running: DueRunReport["running"] = [];
      for (const companyId of companies)
        for (const r of await store.listRuns({ companyId, status: "running" }))
          running.push({ runId: r.id, agentId: r.agentId, agent: await name(r.agentId) });
      return {
        wakes: report.wakes.map((w) => dueWakeReport(w, names.get(w.agentId) ?? w.agentId)),
        ticks: report.ticks,
        problems: report.problems,
        stillDue: report.stillDue,
        stillDueNames,
        running,
        ...(interrupted ? { interrupted } : {}),
      };
    } finally {
      signals.dispose();
      await ownership.release();
    }
  }

  close() {
    return this.store.close();
  }
}

const OPERATOR = { agentId: null, via: "system" as const, runId: null };

function applied(
  result: { ok: true; value: TaskResult } | { ok: false; message: string; fields: Record<string, string> },
): TaskResult {
  if (!result.ok) throw new UserInputError(result.message, result.fields);
  return result.value;
}

function dueWakeReport(w: DueWake, agent: string): DueWakeReport {
  const requests = w.result.requests.map((r) => ({ id: r.id, trigger: r.trigger, taskId: r.taskId }));
  return {
    runId: w.result.run.id,
    agentId: w.agentId,
    agent,
    trigger: w.result.run.trigger,
    terminal: w.result.terminal,
    requests,
    tasks: tasksOf(requests),
    usage: w.result.usage,
  };
}
