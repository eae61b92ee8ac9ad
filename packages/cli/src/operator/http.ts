// The operator port over a running Cadre API (`--server URL`): each operation is a call of the
// typed API client (@cadre/server/client), whose answers are the same view types the local adapter
// builds. The API's refusals keep their meaning: a 4xx is the caller's (exit 2, the API's message),
// an API that does not answer before anything was done is a bad --server (exit 2), anything else —
// a 5xx, or the API lost in the middle of following a wake — a failed job (exit 1).
import {
  type AddConnectorInput,
  type AssignTaskInput,
  type CloseTaskInput,
  type ReviewTaskInput,
  type CommentTaskInput,
  type CreateTaskInput,
  cueTokenCount,
  type Decision,
  harnessOf,
  sessionOfRun,
  type SetBudgetInput,
  type TaskResult,
} from "@cadre/company";
import { type AgentEvent, UserInputError } from "@cadre/core";
import { type ApprovalStatus, usageOfCounters } from "@cadre/model";
import {
  type AnswerOf,
  ApiError,
  type ApiClient,
  type CallArgs,
  createApiClient,
  type Endpoint,
  type ItemOf,
  listAll,
  type ListEndpoint,
} from "@cadre/server/client";
import type {
  AgentView,
  CompanySummaryView,
  CompanyView,
  RunEventView,
  RunView,
  TaskChangeView,
} from "@cadre/server/views";
import type { ServerTarget } from "../client/server-option.js";
import { UsageError } from "../io.js";
import { pageQuery } from "./pages.js";
import {
  type AgentRef,
  type BudgetTarget,
  type CompanyOverview,
  type DueRunReport,
  type DueRunRequest,
  type DueWatcher,
  type ListPage,
  type OperatorPort,
  type ScheduleInput,
  type TaskQuery,
  noSuchFile,
  pickTaskFile,
  tasksOf,
  type WakeOutcome,
  type WakeRequest,
  type WakeWatcher,
} from "./port.js";
import { runInspection } from "./run-inspection.js";

const POLL_MS = 150;
const EVENTS_PAGE = 1000;
const DECISION_SEGMENT = { approve: "approve", reject: "reject", revise: "request-revision" } as const;

/** An ApiError as the CLI reports it: the caller's fault (exit 2) or a failed job (exit 1). */
export function cliError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 0) return new UserInputError(error.message);
  if (error.status >= 400 && error.status < 500)
    return new UserInputError(
      `the API refused ${error.request} (${error.status}): ${error.message}`,
      error.fields ?? {},
    );
  return new Error(`the API failed on ${error.request} (${error.status}): ${error.message}`);
}

/** A task change as the company layer says it (the API answers the task with the same two facts). */
function taskResult(change: TaskChangeView): TaskResult {
  return {
    taskId: change.id,
    title: change.title,
    status: change.status,
    assignee: change.assignee,
    wakes: change.wakes,
  };
}

/** The company's own fields, without the mode and readiness its detail view adds. */
function summaryOf(detail: CompanyView): CompanySummaryView {
  const {
    ceoAgentId: _ceo,
    ceoMode: _mode,
    ceoModeReason: _why,
    toolsInMode: _tools,
    toolsOffered: _offered,
    connectors: _readiness,
    ...company
  } = detail;
  return company;
}

export class HttpOperator implements OperatorPort {
  readonly kind = "http";
  readonly where: string;
  private readonly api: ApiClient;

  constructor(target: ServerTarget, fetcher?: typeof fetch) {
    this.where = target.url;
    this.api = createApiClient({
      baseUrl: target.url,
      token: target.token,
      ...(fetcher ? { fetch: fetcher } : {}),
    });
  }

  private async call<K extends Endpoint>(endpoint: K, ...input: CallArgs<K>): Promise<AnswerOf<K>> {
    try {
      return await this.api.call(endpoint, ...input);
    } catch (error) {
      throw cliError(error);
    }
  }

  /** Every item of a list, page after page (what needs the whole list: the only company, a name). */
  private async all<K extends ListEndpoint>(endpoint: K, ...input: CallArgs<K>): Promise<ItemOf<K>[]> {
    try {
      return await listAll(this.api, endpoint, ...input);
    } catch (error) {
      throw cliError(error);
    }
  }

  /** The company named, or the only one the token can see. */
  async company(companyId?: string): Promise<CompanyView> {
    if (companyId) return this.call("GET /api/companies/{id}", { params: { id: companyId } });
    const companies = await this.all("GET /api/companies");
    const [only] = companies;
    if (!only) throw new UsageError(`no company on ${this.where} yet`);
    if (companies.length > 1)
      throw new UsageError(
        `${this.where} holds ${companies.length} companies; pick one with --company ID: ${companies.map((c) => `${c.id} (${c.name})`).join(", ")}`,
      );
    return this.call("GET /api/companies/{id}", { params: { id: only.id } });
  }

  async messages(companyId: string | undefined, after?: number) {
    const { id } = await this.company(companyId);
    const items = [];
    let cursor = after;
    for (;;) {
      const page = await this.call("GET /api/companies/{id}/messages", {
        params: { id },
        ...(cursor !== undefined ? { query: { after: cursor } } : {}),
      });
      items.push(...page.items);
      if (page.nextCursor === null) break;
      cursor = Number(page.nextCursor);
    }
    return { companyId: id, items };
  }

  async sendMessage(companyId: string | undefined, text: string) {
    const { id } = await this.company(companyId);
    return this.call("POST /api/companies/{id}/messages", { params: { id }, body: { text } });
  }

  createCompany(input: { name: string; goal?: string; workspaceRoot?: string }) {
    return this.call("POST /api/companies", { body: input });
  }

  async companyOverview(companyId?: string): Promise<CompanyOverview> {
    const detail = await this.company(companyId);
    const params = { id: detail.id };
    const [connectors, agents, approvals] = await Promise.all([
      this.all("GET /api/companies/{id}/connectors", { params }),
      this.all("GET /api/companies/{id}/agents", { params, query: { status: "active" } }),
      this.all("GET /api/companies/{id}/approvals", { params }),
    ]);
    const {
      ceoAgentId,
      ceoMode,
      ceoModeReason,
      toolsInMode,
      toolsOffered,
      operatorActions,
      connectors: _readiness,
      ...company
    } = detail;
    return {
      company,
      ceo: agents.find((a) => a.id === ceoAgentId),
      ceoMode,
      ceoModeReason,
      toolsInMode,
      toolsOffered,
      operatorActions,
      connectors,
      agents,
      approvals,
    };
  }

  async listConnectors(companyId?: string) {
    const company = await this.company(companyId);
    return this.all("GET /api/companies/{id}/connectors", { params: { id: company.id } });
  }

  async addConnector(companyId: string | undefined, input: AddConnectorInput) {
    const company = summaryOf(await this.company(companyId));
    const connector = await this.call("POST /api/companies/{id}/connectors", {
      params: { id: company.id },
      body: input,
    });
    return { company, connector };
  }

  async testConnector(companyId: string | undefined, connectorId: string, model?: string) {
    const company = await this.company(companyId);
    return this.call("POST /api/companies/{id}/connectors/{connectorId}/test", {
      params: { id: company.id, connectorId },
      body: model !== undefined ? { model } : {},
    });
  }

  async removeConnector(companyId: string | undefined, connectorId: string) {
    const company = summaryOf(await this.company(companyId));
    const connector = await this.call("DELETE /api/companies/{id}/connectors/{connectorId}", {
      params: { id: company.id, connectorId },
    });
    return { company, connector };
  }

  async listAgents(query: { companyId?: string; all?: boolean; page?: ListPage }) {
    const company = await this.company(query.companyId);
    return this.call("GET /api/companies/{id}/agents", {
      params: { id: company.id },
      query: { status: query.all ? undefined : "active", ...pageQuery(query.page) },
    });
  }

  agent(agentId: string) {
    return this.call("GET /api/agents/{id}", { params: { id: agentId } });
  }

  /** Through the server: a running wake's live session is asked first, in its session lock (MC-13). */
  setAgentModel(agentId: string, model: string, connectorId?: string) {
    return this.call("PATCH /api/agents/{id}/model", {
      params: { id: agentId },
      body: { model, ...(connectorId !== undefined ? { connectorId } : {}) },
    });
  }

  terminateAgent(agentId: string) {
    return this.call("DELETE /api/agents/{id}", { params: { id: agentId } });
  }

  listKeys(agentId: string) {
    return this.all("GET /api/agents/{id}/keys", { params: { id: agentId } });
  }

  mintKey(agentId: string, label?: string) {
    return this.call("POST /api/agents/{id}/keys", {
      params: { id: agentId },
      body: label ? { label } : {},
    });
  }

  revokeKey(agentId: string, keyId: string) {
    return this.call("DELETE /api/agents/{id}/keys/{keyId}", { params: { id: agentId, keyId } });
  }

  async listApprovals(query: { companyId?: string; status?: ApprovalStatus; page?: ListPage }) {
    const company = await this.company(query.companyId);
    return this.call("GET /api/companies/{id}/approvals", {
      params: { id: company.id },
      query: { status: query.status, ...pageQuery(query.page) },
    });
  }

  approval(approvalId: string) {
    return this.call("GET /api/approvals/{id}", { params: { id: approvalId } });
  }

  decide(approvalId: string, decision: Decision, note?: string) {
    return this.call(`POST /api/approvals/{id}/${DECISION_SEGMENT[decision]}`, {
      params: { id: approvalId },
      body: note !== undefined ? { note } : {},
    });
  }

  async wake(request: WakeRequest, watch: WakeWatcher): Promise<WakeOutcome> {
    // The server decides where its wakes run; what only a local process can do is refused.
    if (request.faults)
      throw new UsageError(
        "wake: --faults rehearses failures in this process; it does not work with --server",
      );
    if (request.inProcess || request.queueSchema !== undefined)
      throw new UsageError(
        "wake: --in-process and --queue-schema choose where a local wake runs; with --server the server decides",
      );
    const params = { id: request.agentId };
    const agent = await this.call("GET /api/agents/{id}", { params });
    const started = await this.call("POST /api/agents/{id}/wake", {
      params,
      body: {
        ...(request.trigger ? { trigger: request.trigger } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.profile ? { profile: request.profile } : {}),
      },
    });
    // Nothing to follow yet: the wake waits in the queue for a worker (PostgreSQL installations).
    if (started.status === "queued") return { kind: "queued", wakeId: started.wakeId, agentId: agent.id };
    watch.started({
      runId: started.runId,
      agentName: agent.name,
      mode: started.mode,
      trigger: started.trigger,
      profile: started.profile,
      cue: started.cue,
      cueTokens: started.cueTokens,
    });
    let run: RunView;
    const events: AgentEvent[] = [];
    try {
      run = await this.follow(started.runId, (event) => {
        events.push(event);
        watch.event(event);
      });
    } catch (error) {
      // The wake was started: losing the API now fails the job, it is not a bad --server.
      if (error instanceof ApiError && error.status === 0)
        throw new Error(`lost the Cadre API while following run ${started.runId}: ${error.message}`);
      throw cliError(error);
    }
    const [company, connectors] = await Promise.all([
      this.call("GET /api/companies/{id}", { params: { id: run.companyId } }),
      this.all("GET /api/companies/{id}/connectors", { params: { id: run.companyId } }),
    ]);
    // What the run's own events say about its native session, as for a queued wake's run.
    const kind = connectors.find((c) => c.id === agent.connectorId)?.kind ?? "offline";
    return {
      kind: "ran",
      runId: run.id,
      agentId: agent.id,
      terminal: run.status,
      modeBefore: started.mode,
      modeAfter: company.ceoMode,
      cue: started.cue,
      cueTokens: started.cueTokens,
      usage: usageOfCounters(run.usage),
      session: sessionOfRun(events, harnessOf(kind)),
      ...(started.via === "queue" && started.wakeId ? { wakeId: started.wakeId } : {}),
      ...(run.stopReason ? { stopReason: run.stopReason } : {}),
    };
  }

  /** The run's stored events as they come (polling); the run row is read first, so its end is complete. */
  private async follow(runId: string, onEvent: (event: AgentEvent) => void): Promise<RunView> {
    let after: number | undefined;
    for (;;) {
      const page = await this.api.call("GET /api/runs/{id}/events", {
        params: { id: runId },
        query: { after },
      });
      for (const e of page.events) {
        onEvent(e.data as AgentEvent);
        after = e.id;
      }
      if (page.run.status !== "running") return page.run;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async inspectRun(runId: string) {
    // Over the API a run still marked running is reported running: the server's own sweep ends
    // runs whose process is gone (every 5 s), so there is nothing to read about a lost process here.
    const events: RunEventView[] = [];
    let run: RunView;
    for (let after: number | undefined; ;) {
      const page = await this.call("GET /api/runs/{id}/events", {
        params: { id: runId },
        query: { after, limit: EVENTS_PAGE },
      });
      run = page.run;
      events.push(...page.events);
      if (page.events.length < EVENTS_PAGE) break;
      after = page.events.at(-1)?.id;
    }
    return runInspection(
      run,
      events.map((e) => e.data as AgentEvent),
    );
  }

  agentSession(agentId: string) {
    return this.call("GET /api/agents/{id}/session", { params: { id: agentId } });
  }

  /** The server recovers runs whose process died in its own sweep; `force` releases one at once. */
  resetSession(agentId: string, options: { force: boolean }) {
    return this.call("POST /api/agents/{id}/session/reset", {
      params: { id: agentId },
      body: options.force ? { force: true } : {},
    });
  }

  async usage(query: { companyId?: string }) {
    const ids = query.companyId ? [query.companyId] : (await this.all("GET /api/companies")).map((c) => c.id);
    const reports = [];
    for (const id of ids) reports.push(await this.call("GET /api/companies/{id}/usage", { params: { id } }));
    return reports;
  }

  runUsage(runId: string) {
    return this.call("GET /api/runs/{id}/usage", { params: { id: runId } });
  }

  /** An agent's budget by its own route (checked against --company); else the company's. */
  private async checkAgentCompany(target: BudgetTarget) {
    if (target.agentId === undefined || target.companyId === undefined) return;
    const agent = await this.call("GET /api/agents/{id}", { params: { id: target.agentId } });
    if (agent.companyId !== target.companyId)
      throw new UsageError(
        `budgets: agent ${agent.id} belongs to company ${agent.companyId}, not ${target.companyId}`,
      );
  }

  async budget(target: BudgetTarget) {
    if (target.agentId !== undefined) {
      await this.checkAgentCompany(target);
      return this.call("GET /api/agents/{id}/budget", { params: { id: target.agentId } });
    }
    const { id } = await this.company(target.companyId);
    return this.call("GET /api/companies/{id}/budget", { params: { id } });
  }

  async setBudget(target: BudgetTarget, input: SetBudgetInput) {
    if (target.agentId !== undefined) {
      await this.checkAgentCompany(target);
      return this.call("PUT /api/agents/{id}/budget", { params: { id: target.agentId }, body: input });
    }
    const { id } = await this.company(target.companyId);
    return this.call("PUT /api/companies/{id}/budget", { params: { id }, body: input });
  }

  async listTasks(query: TaskQuery) {
    const company = await this.company(query.companyId);
    const params = { id: company.id };
    const agents = await this.all("GET /api/companies/{id}/agents", { params });
    let assignee: string | undefined;
    if (query.assignee !== undefined) {
      const a = agents.find((x) => x.id === query.assignee || x.name === query.assignee);
      if (!a)
        throw new UsageError(
          `tasks list: --assignee "${query.assignee}" is not an agent of ${company.name}; see cadre agents list`,
        );
      assignee = a.id;
    }
    const page = await this.call("GET /api/companies/{id}/tasks", {
      params,
      query: { status: query.statuses?.join(","), assignee, ...pageQuery(query.page) },
    });
    return { tasks: page.items, nextCursor: page.nextCursor, agents };
  }

  async task(taskId: string) {
    const task = await this.call("GET /api/tasks/{id}", { params: { id: taskId } });
    const agents = await this.all("GET /api/companies/{id}/agents", { params: { id: task.companyId } });
    return { task, agents };
  }

  async createTask(companyId: string | undefined, input: CreateTaskInput) {
    const company = await this.company(companyId);
    return taskResult(
      await this.call("POST /api/companies/{id}/tasks", { params: { id: company.id }, body: input }),
    );
  }

  async assignTask({ taskId, ...body }: AssignTaskInput) {
    return taskResult(await this.call("POST /api/tasks/{id}/assign", { params: { id: taskId }, body }));
  }

  async commentOnTask({ taskId, ...body }: CommentTaskInput) {
    return taskResult(await this.call("POST /api/tasks/{id}/comments", { params: { id: taskId }, body }));
  }

  async closeTask({ taskId, ...body }: CloseTaskInput) {
    return taskResult(await this.call("POST /api/tasks/{id}/close", { params: { id: taskId }, body }));
  }

  async reviewTask({ taskId, ...body }: ReviewTaskInput) {
    return taskResult(await this.call("POST /api/tasks/{id}/review", { params: { id: taskId }, body }));
  }

  async waitingReviews(companyId?: string) {
    const company = await this.company(companyId);
    try {
      return await listAll(this.api, "GET /api/companies/{id}/reviews", { params: { id: company.id } });
    } catch (error) {
      throw cliError(error);
    }
  }

  async taskFile(taskId: string, ref: string) {
    const task = await this.call("GET /api/tasks/{id}", { params: { id: taskId } });
    const file = pickTaskFile(task.files, ref);
    if (!file) throw new UserInputError(noSuchFile(taskId, ref, task.files));
    try {
      const { bytes } = await this.api.file(
        `/api/tasks/${encodeURIComponent(taskId)}/files/${encodeURIComponent(file.id)}`,
      );
      return { file, bytes };
    } catch (error) {
      throw cliError(error);
    }
  }

  async listSchedules(companyId?: string) {
    const company = await this.company(companyId);
    const params = { id: company.id };
    const [schedules, agents] = await Promise.all([
      this.all("GET /api/companies/{id}/schedules", { params }),
      this.all("GET /api/companies/{id}/agents", { params }),
    ]);
    return { schedules, agents };
  }

  /** An agent by id, else an active agent of the company by name. */
  private async scheduledAgent({ ref, companyId }: AgentRef): Promise<AgentView> {
    try {
      return await this.api.call("GET /api/agents/{id}", { params: { id: ref } });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw cliError(error);
    }
    const company = await this.company(companyId);
    const active = await this.all("GET /api/companies/{id}/agents", {
      params: { id: company.id },
      query: { status: "active" },
    });
    const byName = active.find((a) => a.name === ref);
    if (!byName)
      throw new UsageError(
        `schedules: "${ref}" is not an agent id or the name of an active agent; see cadre agents list`,
      );
    return byName;
  }

  async setSchedule(ref: AgentRef, input: ScheduleInput) {
    const agent = await this.scheduledAgent(ref);
    const schedule = await this.call("PATCH /api/agents/{id}/schedule", {
      params: { id: agent.id },
      body: input,
    });
    return { agent, schedule };
  }

  async removeSchedule(ref: AgentRef) {
    const agent = await this.scheduledAgent(ref);
    const { removed } = await this.call("DELETE /api/agents/{id}/schedule", { params: { id: agent.id } });
    return { agent, removed };
  }

  /**
   * The server runs the due work (its due-work pass, POST …/due-work: in the server, or on its
   * workers); this follows each run it started from the run's stored events, one after the other,
   * and asks for another pass (--until-idle) once they have all ended.
   */
  async runDue(request: DueRunRequest, watch: DueWatcher): Promise<DueRunReport> {
    const companies = request.companyId
      ? [(await this.call("GET /api/companies/{id}", { params: { id: request.companyId } })).id]
      : (await this.all("GET /api/companies")).map((c) => c.id);
    const names = new Map<string, string>();
    const name = async (agentId: string) => {
      if (!names.has(agentId)) {
        const agent = await this.api
          .call("GET /api/agents/{id}", { params: { id: agentId } })
          .catch(() => undefined);
        names.set(agentId, agent?.name ?? agentId);
      }
      return names.get(agentId) as string;
    };
    const report: DueRunReport = { wakes: [], ticks: [], problems: [], stillDue: [], stillDueNames: [] };
    const followed = new Set<string>();
    const failed = new Set<string>();
    for (;;) {
      let started = 0;
      for (const companyId of companies) {
        const room = request.maxWakes - report.wakes.length;
        if (room <= 0) break;
        const pass = await this.call("POST /api/companies/{id}/due-work", {
          params: { id: companyId },
          body: { maxWakes: room, ...(request.seed !== undefined ? { seed: request.seed } : {}) },
        });
        for (const tick of pass.ticks) {
          report.ticks.push(tick);
          watch.tick(tick, await name(tick.agentId));
        }
        for (const problem of pass.problems) {
          if (failed.has(problem.agentId)) continue;
          failed.add(problem.agentId);
          report.problems.push(problem);
          watch.problem({ ...problem, agent: await name(problem.agentId) });
        }
        for (const { agentId, runId } of pass.runs) {
          if (followed.has(runId) || report.wakes.length >= request.maxWakes) continue;
          followed.add(runId);
          started++;
          report.wakes.push(await this.followDue(companyId, runId, await name(agentId), watch));
        }
      }
      if (!request.untilIdle || started === 0 || report.wakes.length >= request.maxWakes) break;
    }
    for (const companyId of companies) {
      const pending = await this.all("GET /api/companies/{id}/wake-requests", {
        params: { id: companyId },
        query: { status: "pending" },
      });
      for (const agentId of new Set(pending.map((r) => r.agentId))) report.stillDue.push(agentId);
    }
    report.stillDueNames = await Promise.all(report.stillDue.map(name));
    return report;
  }

  /** One run of due work, from its start to its end, as its stored events tell it. */
  private async followDue(companyId: string, runId: string, agent: string, watch: DueWatcher) {
    const begun = await this.call("GET /api/runs/{id}", { params: { id: runId } });
    watch.started({
      runId,
      agentName: agent,
      trigger: begun.trigger,
      mode: begun.mode,
      cue: begun.cue,
      cueTokens: cueTokenCount(begun.cue),
    });
    let run: RunView;
    try {
      run = await this.follow(runId, (event) => watch.event(event, agent));
    } catch (error) {
      if (error instanceof ApiError && error.status === 0)
        throw new Error(`lost the Cadre API while following run ${runId}: ${error.message}`);
      throw cliError(error);
    }
    const taken = await this.all("GET /api/companies/{id}/wake-requests", {
      params: { id: companyId },
      query: { status: "taken" },
    });
    const requests = taken
      .filter((r) => r.runId === runId)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
      .map((r) => ({ id: r.id, trigger: r.trigger, taskId: r.taskId }));
    const wake = {
      runId,
      agentId: run.agentId,
      agent,
      trigger: run.trigger,
      terminal: run.status,
      requests,
      tasks: tasksOf(requests),
      usage: usageOfCounters(run.usage),
    };
    watch.ended(wake);
    return wake;
  }

  async close() {}
}
