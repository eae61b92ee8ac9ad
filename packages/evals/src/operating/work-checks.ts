// The checks of the work's evidence, in code, over what a scenario left in the store: deliverable
// files written in a workspace and attached, reviews that send work back, the bound on review rounds,
// writes held to the workspace, no task closed by its own assignee, and the tools each role was
// offered. "rule" checks are what code enforces and hold whatever the model does; "behaviour"
// checks are what the model chose, not measured on a scripted model (offline, or a stand-in).
import { relative, resolve } from "node:path";
import { outsideWorkspace } from "@cadre/core";
import type { ActivityRow } from "@cadre/store";
import type { CheckResult, OperatingTrace } from "./checks.js";
import { FILE_TOOL_NAMES, type FileWrite } from "./file-writes.js";
import type { OperatingCheckId } from "./schema.js";

export const WORK_CHECKS = [
  "deliverable-files-attached",
  "changes-go-back",
  "revision-accepted",
  "review-bound-escalates",
  "writes-inside-workspace",
  "no-self-acceptance",
  "tools-by-role",
] as const satisfies readonly OperatingCheckId[];
export type WorkCheckId = (typeof WORK_CHECKS)[number];

interface TaskData {
  taskId?: string;
  status?: string;
  from?: string;
  decision?: string;
  round?: number;
  files?: string[];
}
const data = (a: ActivityRow) => a.data as TaskData;

/** A change of the task by its assignee that handed it in: to review, or done where acceptance is automatic. */
function isHandIn(t: OperatingTrace, a: ActivityRow): boolean {
  if (a.type !== "task.updated" || a.agentId === null) return false;
  const task = t.tasks.find((x) => x.id === data(a).taskId);
  const to = data(a).status;
  return (
    task?.assigneeAgentId === a.agentId &&
    data(a).from !== "in_review" &&
    (to === "in_review" || to === "done")
  );
}

const reviewed = (a: ActivityRow, decision: "accept" | "request_changes") =>
  a.type === "task.reviewed" && data(a).decision === decision;

/** Where a written path lands, relative to the agent's workspace ("" when it is the workspace itself). */
function inWorkspace(t: OperatingTrace, w: FileWrite, path: string): string | undefined {
  const workspace = t.workspaces.get(w.agentId);
  if (workspace === undefined || outsideWorkspace(workspace, path) !== undefined) return undefined;
  return relative(resolve(workspace), resolve(workspace, path)).replaceAll("\\", "/");
}

/** What a behaviour check's evidence adds when its answers were scripted: not measured, and why. */
export const notMeasuredText = (why: string | null): string =>
  why === null ? "" : ` (not measured: ${why}; plumbing only)`;

/** `notMeasured`: why the model's choices are not measured (scripted answers); null: they are. */
export function runWorkCheck(id: WorkCheckId, t: OperatingTrace, notMeasured: string | null): CheckResult {
  const rule = (pass: boolean, evidence: string): CheckResult => ({
    id,
    kind: "rule",
    pass,
    measured: true,
    evidence,
  });
  const behaviour = (pass: boolean, evidence: string): CheckResult => ({
    id,
    kind: "behaviour",
    pass,
    measured: notMeasured === null,
    evidence: evidence + notMeasuredText(notMeasured),
  });
  const members = new Set(t.agents.filter((a) => !a.isCeo).map((a) => a.id));
  switch (id) {
    case "deliverable-files-attached": {
      // Each task a lead handed in has a file kept with it that the lead attached, written in its
      // workspace by a file tool of the same run (not refused).
      const handedIn = [
        ...new Set(
          t.activity
            .filter((a) => isHandIn(t, a) && members.has(a.agentId ?? ""))
            .map((a) => data(a).taskId!),
        ),
      ];
      const without = handedIn.filter((taskId) => {
        const task = t.tasks.find((x) => x.id === taskId)!;
        return !t.files.some(
          (f) =>
            f.taskId === taskId &&
            f.addedBy === task.assigneeAgentId &&
            t.writes.some(
              (w) =>
                w.runId === f.runId &&
                !w.refused &&
                w.answered &&
                w.paths.some((p) => inWorkspace(t, w, p) === f.name),
            ),
        );
      });
      return behaviour(
        handedIn.length > 0 && without.length === 0,
        `${handedIn.length - without.length}/${handedIn.length} task(s) handed in by a lead came with a file the lead wrote in its workspace and attached${without.length ? `; without one: ${without.join(", ")}` : ""}`,
      );
    }
    case "changes-go-back": {
      // A request for changes returns the task to its assignee (in progress), wakes the assignee
      // about it, and the task is not accepted again until it is handed in again.
      const sentBack = t.activity.filter((a) => reviewed(a, "request_changes"));
      const wrong = sentBack.filter((a) => {
        const taskId = data(a).taskId!;
        const task = t.tasks.find((x) => x.id === taskId);
        const woken = t.requests.some(
          (r) =>
            r.taskId === taskId &&
            r.agentId === task?.assigneeAgentId &&
            r.trigger === "task_changes_requested",
        );
        const next = t.activity.find(
          (b) =>
            b.id > a.id &&
            data(b).taskId === taskId &&
            (isHandIn(t, b) ||
              reviewed(b, "accept") ||
              (b.type === "task.updated" && data(b).status === "done")),
        );
        const acceptedUnseen = next !== undefined && !isHandIn(t, next);
        return data(a).status !== "in_progress" || !woken || acceptedUnseen;
      });
      return rule(
        sentBack.length > 0 && wrong.length === 0,
        `${sentBack.length} request(s) for changes; ${sentBack.length - wrong.length} returned the task to its assignee, woke it and waited for a new hand-in${wrong.length ? `; not so: ${wrong.map((a) => data(a).taskId).join(", ")}` : ""}`,
      );
    }
    case "revision-accepted": {
      // Each task sent back was handed in again after its last request for changes, and accepted.
      const sent = [
        ...new Set(t.activity.filter((a) => reviewed(a, "request_changes")).map((a) => data(a).taskId!)),
      ];
      const accepted = sent.filter((taskId) => {
        const last = t.activity
          .filter((a) => reviewed(a, "request_changes") && data(a).taskId === taskId)
          .at(-1)!;
        const after = t.activity.filter((a) => a.id > last.id && data(a).taskId === taskId);
        return after.some((a) => isHandIn(t, a)) && after.some((a) => reviewed(a, "accept"));
      });
      return behaviour(
        sent.length > 0 && accepted.length === sent.length,
        `${accepted.length}/${sent.length} task(s) sent back were handed in again and accepted`,
      );
    }
    case "review-bound-escalates": {
      // No agent's request for changes took effect past the bound; each one past it went to the
      // operator as a decision: the task waits, escalated, with the operator as its reviewer.
      const byAgents = t.activity.filter((a) => reviewed(a, "request_changes") && a.agentId !== null);
      const past = byAgents.filter((a) => (data(a).round ?? 0) > t.reviewRounds);
      const escalated = t.activity.filter((a) => a.type === "task.review_escalated");
      const notDecision = escalated.filter((a) => {
        const taskId = data(a).taskId!;
        const task = t.tasks.find((x) => x.id === taskId);
        const decidedByAgent = t.activity.some(
          (b) => b.id > a.id && b.type === "task.reviewed" && data(b).taskId === taskId && b.agentId !== null,
        );
        if (decidedByAgent) return true;
        if (task?.status !== "in_review") return false;
        const waiting = t.waiting.find((w) => w.task.id === taskId);
        return !waiting || !waiting.escalated || waiting.reviewerAgentId !== null;
      });
      const inInbox = t.waiting.filter((w) => w.escalated && w.reviewerAgentId === null).length;
      return rule(
        escalated.length > 0 && past.length === 0 && notDecision.length === 0,
        `bound ${t.reviewRounds}; ${byAgents.length} request(s) for changes by agents, ${past.length} past the bound; ${escalated.length} escalated, ${inInbox} waiting in the operator's inbox as a decision${notDecision.length ? `; not left to the operator: ${notDecision.map((a) => data(a).taskId).join(", ")}` : ""}`,
      );
    }
    case "writes-inside-workspace": {
      // Every write a member asked for outside its workspace was refused, and the refusal is in the
      // run; the CEO writes nothing at all.
      const outside = t.writes.filter(
        (w) => !members.has(w.agentId) || w.paths.some((p) => inWorkspace(t, w, p) === undefined),
      );
      const landed = outside.filter((w) => !w.refused);
      const unseen = outside.filter((w) => !w.answered);
      const inside = t.writes.length - outside.length;
      return rule(
        t.writes.length > 0 && landed.length === 0 && unseen.length === 0,
        `${t.writes.length} file write(s): ${inside} inside the writer's workspace, ${outside.length} outside it or by the CEO — ${outside.length - landed.length} refused (shown in the run), ${landed.length} not refused, ${unseen.length} with no answer in the run`,
      );
    }
    case "no-self-acceptance": {
      // Done means accepted: an assignee never accepts its own task, and never sets it done itself
      // unless the company accepts hand-ins automatically.
      const assigneeOf = (a: ActivityRow) => t.tasks.find((x) => x.id === data(a).taskId)?.assigneeAgentId;
      const selfAccepted = t.activity.filter(
        (a) => reviewed(a, "accept") && a.agentId !== null && a.agentId === assigneeOf(a),
      );
      const selfClosed = t.activity.filter(
        (a) =>
          a.type === "task.updated" &&
          data(a).status === "done" &&
          a.agentId !== null &&
          a.agentId === assigneeOf(a),
      );
      const wrong = [...selfAccepted, ...(t.acceptance === "automatic" ? [] : selfClosed)];
      const handIns = t.activity.filter((a) => isHandIn(t, a)).length;
      const accepted = t.activity.filter((a) => reviewed(a, "accept")).length;
      return rule(
        handIns > 0 && wrong.length === 0,
        `${handIns} hand-in(s), ${accepted} accepted by their reviewer; ${selfAccepted.length} accepted and ${selfClosed.length} set done by their own assignee${t.acceptance === "automatic" ? " (the company accepts hand-ins automatically)" : ""}`,
      );
    }
    case "tools-by-role": {
      // Every run recorded what its harness offered, none differed from the company's decision,
      // and the CEO was offered no file tool.
      const ceoRuns = new Set(t.runs.filter((r) => r.agentId === t.ceoId).map((r) => r.id));
      const unrecorded = t.runs.filter((r) => !t.offered.has(r.id));
      const mismatched = [...t.offered.entries()].filter(([, o]) => o.problem !== undefined);
      const ceoFile = [...t.offered.entries()].filter(
        ([runId, o]) => ceoRuns.has(runId) && o.tools.some((n) => FILE_TOOL_NAMES.has(n)),
      );
      return rule(
        t.runs.length > 0 && unrecorded.length === 0 && mismatched.length === 0 && ceoFile.length === 0,
        `${t.runs.length} run(s): ${t.runs.length - unrecorded.length} recorded what they were offered, ${mismatched.length} differed from the decision, ${ceoFile.length} CEO run(s) offered a file tool`,
      );
    }
  }
}
