// The operating-phase checks, in code, over what a scenario left in the store. "rule" checks are
// the wake rules (OP-1, OP-2) and hold whatever the model does; "behaviour" checks are about what
// the model chose to do — with the offline scripted model they exercise plumbing and are reported
// as not measured.
import { isFinishedTask } from "@cadre/model";
import type { ActivityRow, AgentRow, RunRow, Store, TaskRow, WakeRequestRow } from "@cadre/store";
import type { OperatingCheckId } from "./schema.js";

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
}

export interface CheckResult {
  id: OperatingCheckId;
  kind: "rule" | "behaviour";
  pass: boolean;
  /** False for behaviour checks on a scripted model: plumbing, not a measurement. */
  measured: boolean;
  evidence: string;
}

export async function collectOperatingTrace(
  store: Store,
  companyId: string,
  seeded: Map<string, TaskRow>,
): Promise<OperatingTrace> {
  const agents = await store.listAgents(companyId);
  const ceo = agents.find((a) => a.isCeo)!;
  const strategy = (
    await store.listApprovals(companyId, { type: "approve_ceo_strategy", status: "approved" })
  ).at(-1);
  const runs = await store.listRuns({ companyId });
  let modelCalls = 0;
  for (const r of runs)
    modelCalls += (await store.listRunEvents(r.id)).filter((e) => e.type === "usage").length;
  return {
    agents,
    ceoId: ceo.id,
    strategyId: strategy?.id ?? null,
    runs,
    requests: await store.listWakeRequests({ companyId }),
    tasks: await store.listTasks(companyId),
    activity: await store.listActivity(companyId),
    modelCalls,
    seeded,
    schedules: (await store.listSchedules(companyId)).length,
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

export function runCheck(id: OperatingCheckId, t: OperatingTrace, scripted: boolean): CheckResult {
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
        measured: !scripted,
        evidence: `${leads.length - without.length}/${leads.length} leads have a task the CEO created under the approved strategy${without.length ? `; without one: ${without.map((l) => l.name).join(", ")}` : ""}${scripted ? " (scripted model: plumbing, not measured)" : ""}`,
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
