// `cadre tasks …` and `cadre schedules …`, rendered once for both adapters: a task's line (its
// assignee and creator by name), a task in detail, a change and whom it wakes, a schedule's line.
import { describeSchedule, type TaskResult } from "@cadre/company";
import type { AgentView, ScheduleView, TaskDetailView, TaskView } from "@cadre/server/views";
import { table } from "./table.js";

function namer(agents: readonly AgentView[]) {
  return (id: string | null) => (id === null ? "nobody" : (agents.find((a) => a.id === id)?.name ?? id));
}

/** A task's cells: id, status, assignee, creator, deliverable (and by whom), blockers, title. */
function taskCells(t: TaskView, agents: readonly AgentView[]): string[] {
  const name = namer(agents);
  const who = (id: string) => (id === "operator" ? "operator" : name(id));
  const deliverable = t.deliverable ? (t.deliverableBy ? `by ${who(t.deliverableBy)}` : "yes") : "-";
  return [
    t.id,
    t.status,
    name(t.assigneeAgentId),
    who(t.creator),
    deliverable,
    t.blockers.length > 0 ? t.blockers.join(",") : "-",
    `"${t.title}"`,
  ];
}

const TASK_HEADER = ["ID", "STATUS", "ASSIGNEE", "CREATOR", "DELIVERABLE", "BLOCKED BY", "TITLE"];

export function taskLine(t: TaskView, agents: readonly AgentView[]): string {
  return table([TASK_HEADER, taskCells(t, agents)]).trimEnd();
}

/** Aligned columns under a header, whatever the lengths of names and titles. */
export function tasksText(tasks: readonly TaskView[], agents: readonly AgentView[]): string {
  if (tasks.length === 0) return "no tasks\n";
  return table([TASK_HEADER, ...tasks.map((t) => taskCells(t, agents))]);
}

export function taskDetailText(detail: TaskDetailView, agents: readonly AgentView[]): string {
  const name = (id: string) => (id === "operator" ? "operator" : namer(agents)(id));
  let out = `${taskLine(detail, agents)}\n`;
  if (detail.description) out += `\n${detail.description}\n`;
  for (const c of detail.comments) out += `\ncomment by ${name(c.author)} (${c.createdAt}):\n${c.body}\n`;
  if (detail.deliverable)
    out += `\ndeliverable${detail.deliverableBy ? ` by ${name(detail.deliverableBy)}` : ""}:\n${detail.deliverable}\n`;
  if (detail.files.length > 0) {
    out += "\nfiles handed in (cadre tasks file TASK_ID NAME):\n";
    for (const f of detail.files)
      out += `  ${f.name}  ${f.size} bytes  sha256 ${f.sha256.slice(0, 12)}  by ${name(f.addedBy)}  ${f.createdAt}  (${f.id})\n`;
  }
  out += "\nhistory:\n";
  for (const h of detail.history) out += `  ${h.at}  ${h.type}${h.runId ? ` (run ${h.runId})` : ""}\n`;
  for (const w of detail.wakes)
    out += `  wake of ${name(w.agentId)}: ${w.trigger} — ${w.status}${w.runId ? ` (run ${w.runId})` : ""}${w.note ? ` (${w.note})` : ""}\n`;
  return out;
}

export function taskChangeText(v: TaskResult): string {
  return `${v.taskId} "${v.title}": ${v.status}, assigned to ${v.assignee ?? "nobody"}${v.wakes.length > 0 ? `; wakes ${v.wakes.join(", ")} (cadre run)` : ""}\n`;
}

export function scheduleLine(s: ScheduleView, agents: readonly AgentView[]): string {
  const name = agents.find((a) => a.id === s.agentId)?.name ?? s.agentId;
  return `${name.padEnd(16)} ${describeSchedule(s).padEnd(40)} next ${s.nextDueAt}${s.lastTickAt ? `, last ${s.lastTickAt}` : ""}`;
}

export function schedulesText(schedules: readonly ScheduleView[], agents: readonly AgentView[]): string {
  if (schedules.length === 0) return "no schedules\n";
  return schedules.map((s) => `${scheduleLine(s, agents)}\n`).join("");
}
