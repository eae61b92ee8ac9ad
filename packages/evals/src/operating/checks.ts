// The operating-phase checks, in code, over what a scenario left in the store. "rule" checks are
// the wake rules (OP-1, OP-2) and the work's rules (work-checks.ts), and hold whatever the model
// does; "behaviour" checks are about what the model chose to do — with the offline scripted model
// or a stand-in they exercise plumbing and are reported as not measured, with the reason.
import { agentWorkspace, waitingReviews, type WaitingReviewView, workspaceOf } from "@cadre/company";
import type { AgentEvent, HarnessToolsReport } from "@cadre/core";
import { DEFAULT_REVIEW_ROUNDS, isFinishedTask } from "@cadre/model";
import type {
  ActivityRow,
  AgentRow,
  RunRow,
  Store,
  TaskFileRow,
  TaskRow,
  WakeRequestRow,
} from "@cadre/store";
import { type FileWrite, fileWritesOf } from "./file-writes.js";
import type { OperatingCheckId } from "./schema.js";
import { notMeasuredText, runWorkCheck, WORK_CHECKS, type WorkCheckId } from "./work-checks.js";

export interface OperatingTrace {
  agents: AgentRow[];
  ceoId: string;
  strategyId: string | null;
  runs: RunRow[];
  requests: WakeRequestRow[];
  tasks: TaskRow[];
  activity: ActivityRow[];
  /** Model calls made (stored usage events). */
  modelCalls: number;
  /** Tasks seeded before the company was set to work (finished ones included). */
  seeded: Map<string, TaskRow>;
  schedules: number;
  /** Files kept with the company's tasks. */
  files: TaskFileRow[];
  /** The file writes every run asked its harness for. */
  writes: FileWrite[];
  /** What each run's harness said it offered (its harness_tools event), by run id. */
  offered: Map<string, HarnessToolsReport>;
  /** Each agent's workspace (absolute), by agent id. */
  workspaces: Map<string, string>;
  /** The company's bound on rounds of changes, and how hand-ins are accepted. */
  reviewRounds: number;
  acceptance: "review" | "automatic";
  /** The tasks handed in and waiting, each with its reviewer (the operator's inbox lists its own). */
  waiting: WaitingReviewView[];
}

export interface CheckResult {
  id: OperatingCheckId;
  kind: "rule" | "behaviour";
  pass: boolean;
  /** False for behaviour checks on a scripted model (offline, or a stand-in): plumbing, not a measurement. */
  measured: boolean;
  evidence: string;
}

export async function collectOperatingTrace(
  store: Store,
  companyId: string,
  seeded: Map<string, TaskRow>,
  dataDir?: string,
): Promise<OperatingTrace> {
  const agents = await store.listAgents(companyId);
  const ceo = agents.find((a) => a.isCeo)!;
  const company = (await store.getCompany(companyId))!;
  const strategy = (
    await store.listApprovals(companyId, { type: "approve_ceo_strategy", status: "approved" })
  ).at(-1);
  const runs = await store.listRuns({ companyId });
  let modelCalls = 0;
  const writes: FileWrite[] = [];
  const offered = new Map<string, HarnessToolsReport>();
  for (const r of runs) {
    const events = (await store.listRunEvents(r.id)).map((e) => e.data as AgentEvent);
    modelCalls += events.filter((e) => e.type === "usage").length;
    writes.push(...fileWritesOf(r, events));
    const tools = events.find((e) => e.type === "harness_tools");
    if (tools) offered.set(r.id, tools);
  }
  const tasks = await store.listTasks(companyId);
  const files: TaskFileRow[] = [];
  for (const t of tasks) files.push(...(await store.listTaskFiles(t.id)));
  const reviews = await waitingReviews(store, companyId);
  const waiting: WaitingReviewView[] = [];
  for (const row of reviews.rows) waiting.push(await reviews.view(row));
  return {
    agents,
    ceoId: ceo.id,
    strategyId: strategy?.id ?? null,
    runs,
    requests: await store.listWakeRequests({ companyId }),
    tasks,
    activity: await store.listActivity(companyId),
    modelCalls,
    seeded,
    schedules: (await store.listSchedules(companyId)).length,
    files,
    writes,
    offered,
    workspaces: new Map(agents.map((a) => [a.id, workspaceOf(agentWorkspace(company, a, dataDir))])),
    reviewRounds: company.settings.reviewRounds ?? DEFAULT_REVIEW_ROUNDS,
    acceptance: company.settings.acceptance ?? "review",
    waiting,
  };
}

const taskData = (a: ActivityRow) =>
  a.data as { taskId?: string; runId?: string; status?: string; agentId?: string };

function finishedAt(t: OperatingTrace, taskId: string): number | undefined {
  const seeded = t.seeded.get(taskId);
  if (seeded && isFinishedTask(seeded.status)) return 0;
  const done = t.activity.find(
    (a) =>
      // Finished by its assignee or the operator (task.updated), or accepted in review (task.reviewed).
      (a.type === "task.updated" || a.type === "task.reviewed") &&
      taskData(a).taskId === taskId &&
      ["done", "cancelled"].includes(taskData(a).status ?? ""),
  );
  return done?.id;
}

const isWorkCheck = (id: OperatingCheckId): id is WorkCheckId =>
  (WORK_CHECKS as readonly string[]).includes(id);

/** `notMeasured`: why the model's choices are not measured (scripted answers); null: they are. */
export function runCheck(id: OperatingCheckId, t: OperatingTrace, notMeasured: string | null): CheckResult {
  if (isWorkCheck(id)) return runWorkCheck(id, t, notMeasured);
  const rule = (pass: boolean, evidence: string): CheckResult => ({
    id,
    kind: "rule",
    pass,
    measured: true,
    evidence,
  });
  switch (id) {
    case "leads-have-strategy-tasks": {
      const leads = t.agents.filter((a) => !a.isCeo && a.status === "active");
      const without = leads.filter(
        (l) =>
          !t.tasks.some(
            (task) =>
              task.assigneeAgentId === l.id &&
              task.creatorAgentId === t.ceoId &&
              task.strategyId === t.strategyId &&
              t.strategyId !== null,
          ),
      );
      return {
        id,
        kind: "behaviour",
        pass: without.length === 0 && leads.length > 0,
        measured: notMeasured === null,
        evidence: `${leads.length - without.length}/${leads.length} leads have a task the CEO created under the approved strategy${without.length ? `; without one: ${without.map((l) => l.name).join(", ")}` : ""}${notMeasuredText(notMeasured)}`,
      };
    }
    case "no-self-wake": {
      const self = t.requests.filter((r) => r.causedBy === r.agentId);
      return rule(
        self.length === 0,
        `${t.requests.length} wake requests, ${self.length} caused by the woken agent itself`,
      );
    }
    case "no-wake-for-finished-work": {
      // A request taken by a run about a task that was finished before it was requested or taken
      // (results for the creator aside — done, or handed in for its review: those are about finished work by definition).
      const wrong = t.requests.filter((r) => {
        if (
          r.status !== "taken" ||
          r.taskId === null ||
          r.trigger === "task_done" ||
          r.trigger === "task_in_review"
        )
          return false;
        const finished = finishedAt(t, r.taskId);
        const taken = t.activity.find(
          (a) =>
            a.type === "task.checked_out" && taskData(a).taskId === r.taskId && taskData(a).runId === r.runId,
        );
        return finished !== undefined && (taken === undefined || finished < taken.id);
      });
      const dropped = t.requests.filter((r) => r.status === "dropped").length;
      return rule(
        wrong.length === 0,
        `${t.runs.length} runs; ${wrong.length} woken for finished work; ${dropped} request(s) dropped because their task finished or moved`,
      );
    }
    case "blocked-work-waits": {
      const blocked = t.tasks.filter((x) => x.blockers.length > 0);
      const early = blocked.filter((x) => {
        const lastBlockerDone = Math.max(
          ...x.blockers.map((b) => finishedAt(t, b) ?? Number.POSITIVE_INFINITY),
        );
        const started = t.activity.find((a) => a.type === "task.checked_out" && taskData(a).taskId === x.id);
        return started !== undefined && started.id < lastBlockerDone;
      });
      const unblocked = t.runs.filter((r) => r.trigger === "task_unblocked").length;
      return rule(
        blocked.length > 0 &&
          early.length === 0 &&
          unblocked === blocked.filter((x) => x.status === "done").length,
        `${blocked.length} blocked task(s); ${early.length} started before their blockers were done; ${unblocked} task_unblocked wake(s)`,
      );
    }
    case "idle-schedule-zero-calls": {
      const skipped = t.activity.filter((a) => a.type === "schedule.skipped");
      const ticks = skipped.reduce((n, a) => n + Number((a.data as { ticks?: number }).ticks ?? 0), 0);
      return rule(
        t.runs.length === 0 && t.modelCalls === 0 && skipped.length === t.schedules && t.schedules > 0,
        `${t.schedules} schedule(s), ${ticks} tick(s) due, ${skipped.length} skip record(s), ${t.runs.length} runs, ${t.modelCalls} model calls`,
      );
    }
    case "runs-bounded": {
      const created = t.tasks.filter((x) => !t.seeded.has(x.id)).length;
      return rule(
        t.runs.length <= created + 2,
        `${t.runs.length} runs for ${created} task(s) created (bound: tasks + 2)`,
      );
    }
    case "one-run-per-task": {
      const holder = new Map<string, string>();
      let overlaps = 0;
      let checkouts = 0;
      for (const a of t.activity) {
        const d = taskData(a);
        if (a.type === "task.checked_out") {
          checkouts++;
          if (holder.has(d.taskId!)) overlaps++;
          holder.set(d.taskId!, d.runId!);
        } else if (a.type === "task.released") holder.delete(d.taskId!);
      }
      return rule(
        overlaps === 0 && holder.size === 0,
        `${checkouts} checkout(s), ${overlaps} overlap(s), ${holder.size} left held`,
      );
    }
  }
}
