// What an org chart card says of an agent's work: its status (running, idle, terminated), the task
// it works on now and what it has spent, from the runs, tasks and usage report the Overview holds.
import type { Agent, CompanyUsageReport, Run, Task } from "../api/types.js";
import { formatCost, formatTokens } from "./format.js";

export interface AgentGlance {
  status: "running" | "idle" | "terminated";
  /** The task it works on now (checked out or in progress), or what is queued for it. */
  task: string;
  /** Its spend over its runs: $ when priced, "unknown" when a call has no price; tokens beside. */
  spend: string;
}

export function agentGlances(
  agents: readonly Agent[],
  runs: readonly Run[],
  tasks: readonly Task[],
  usage: CompanyUsageReport | undefined,
): Map<string, AgentGlance> {
  const running = new Set(runs.filter((r) => r.status === "running").map((r) => r.agentId));
  const spent = new Map(usage?.agents.map((a) => [a.agentId, a.usage]) ?? []);
  const out = new Map<string, AgentGlance>();
  for (const a of agents) {
    const mine = tasks.filter((t) => t.assigneeAgentId === a.id);
    const now =
      mine.find((t) => t.checkedOutBy !== null) ??
      mine.find((t) => t.status === "in_progress") ??
      mine.find((t) => t.status === "todo");
    const u = spent.get(a.id);
    out.set(a.id, {
      status: a.status === "terminated" ? "terminated" : running.has(a.id) ? "running" : "idle",
      task: now ? `${now.status === "todo" ? "next" : "on"}: ${now.title}` : "no task",
      spend:
        !u || u.total === 0 ? "nothing spent" : `${formatCost(u.cost)} · ${formatTokens(u.total)} tokens`,
    });
  }
  return out;
}
