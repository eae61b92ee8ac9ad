// `cadre tasks …` and `cadre schedules …`, rendered once for both adapters: a task's line (its
// assignee and creator by name), a task in detail, a change and whom it wakes, a schedule's line.
import { describeSchedule, type TaskResult } from "@cadre/company";
import type { AgentView, ScheduleView, TaskDetailView, TaskView } from "@cadre/server/views";

function namer(agents: readonly AgentView[]) {
  return (id: string | null) => (id === null ? "nobody" : (agents.find((a) => a.id === id)?.name ?? id));
}

export function taskLine(t: TaskView, agents: readonly AgentView[]): string {
  const name = namer(agents);
  const by = t.creator === "operator" ? "operator" : name(t.creator);
  const blocked = t.blockers.length > 0 ? ` blocked-by ${t.blockers.join(",")}` : "";
  return `${t.id}  ${t.status.padEnd(11)} ${name(t.assigneeAgentId).padEnd(16)} "${t.title}" (by ${by}${blocked}${t.deliverable ? ", deliverable" : ""})`;
}

export function tasksText(tasks: readonly TaskView[], agents: readonly AgentView[]): string {
  if (tasks.length === 0) return "no tasks\n";
  return tasks.map((t) => `${taskLine(t, agents)}\n`).join("");
}

export function taskDetailText(detail: TaskDetailView, agents: readonly AgentView[]): string {
  const name = (id: string) => (id === "operator" ? "operator" : namer(agents)(id));
  let out = `${taskLine(detail, agents)}\n`;
  if (detail.description) out += `\n${detail.description}\n`;
  for (const c of detail.comments) out += `\ncomment by ${name(c.author)} (${c.createdAt}):\n${c.body}\n`;
  if (detail.deliverable) out += `\ndeliverable:\n${detail.deliverable}\n`;
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
