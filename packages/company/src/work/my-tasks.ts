// list_my_tasks: what an agent has to do and what it asked others to do. Agent-written text (titles,
// deliverables) comes back as JSON string fields — data in a tool result, never instructions in the
// system prompt — with the deliverable cut to a length a reader can take in.
import { isFinishedTask, type TaskStatus } from "@cadre/model";
import type { StoreQueries, TaskRow } from "@cadre/store";
import type { Actor } from "../actions/actor.js";

export const DELIVERABLE_EXCERPT = 1500;

export interface TaskBrief {
  id: string;
  title: string;
  status: TaskStatus;
  assignee: string | null;
  createdBy: string;
  /** Blockers not finished yet, with their status: the task can start once there are none. */
  openBlockers: Array<{ id: string; status: TaskStatus }>;
  deliverable: string | null;
  deliverableCut: boolean;
  /** The names of the files handed in with it (copies kept with the task), oldest first. */
  files: string[];
}

export interface MyTasks {
  /** Tasks assigned to you. */
  assigned: TaskBrief[];
  /** Tasks you created (assigned to others or to nobody yet). */
  created: TaskBrief[];
}

type Names = ReadonlyMap<string, string>;

function name(agents: Names, id: string | null, none: string): string {
  if (id === null) return none;
  return agents.get(id) ?? id;
}

/** The names of the agents these tasks name, each read once by id (never the whole team). */
async function namesIn(q: StoreQueries, companyId: string, tasks: readonly TaskRow[]): Promise<Names> {
  const names = new Map<string, string>();
  for (const t of tasks)
    for (const id of [t.assigneeAgentId, t.creatorAgentId])
      if (id !== null && !names.has(id)) {
        const a = await q.getAgent(id);
        names.set(id, a && a.companyId === companyId ? a.name : id);
      }
  return names;
}

async function brief(q: StoreQueries, agents: Names, task: TaskRow): Promise<TaskBrief> {
  const openBlockers: TaskBrief["openBlockers"] = [];
  for (const id of task.blockers) {
    const b = await q.getTask(id);
    if (b && !isFinishedTask(b.status)) openBlockers.push({ id: b.id, status: b.status });
  }
  const deliverable = task.deliverable;
  const cut = deliverable !== null && [...deliverable].length > DELIVERABLE_EXCERPT;
  return {
    id: task.id,
    title: task.title,
    status: task.status,
    assignee: task.assigneeAgentId === null ? null : name(agents, task.assigneeAgentId, "nobody"),
    createdBy: name(agents, task.creatorAgentId, "the operator"),
    openBlockers,
    deliverable: cut ? `${[...deliverable].slice(0, DELIVERABLE_EXCERPT).join("")}…` : deliverable,
    deliverableCut: cut,
    files: (await q.listTaskFiles(task.id)).map((f) => f.name),
  };
}

export async function listMyTasks(q: StoreQueries, actor: Actor): Promise<MyTasks> {
  if (actor.agentId === null) return { assigned: [], created: [] };
  const assigned = await q.listTasks(actor.companyId, { assigneeAgentId: actor.agentId });
  const created = (await q.listTasks(actor.companyId, { creatorAgentId: actor.agentId })).filter(
    (t) => t.assigneeAgentId !== actor.agentId,
  );
  const agents = await namesIn(q, actor.companyId, [...assigned, ...created]);
  return {
    assigned: await Promise.all(assigned.map((t) => brief(q, agents, t))),
    created: await Promise.all(created.map((t) => brief(q, agents, t))),
  };
}

/** Open, startable work of an agent: assigned, todo or in progress, no open blocker (OP-2's "open work"). */
export async function openWorkOf(q: StoreQueries, companyId: string, agentId: string): Promise<TaskRow[]> {
  const tasks = await q.listTasks(companyId, { assigneeAgentId: agentId, statuses: ["todo", "in_progress"] });
  const out: TaskRow[] = [];
  for (const t of tasks) {
    let blocked = false;
    for (const id of t.blockers) {
      const b = await q.getTask(id);
      if (b && !isFinishedTask(b.status)) blocked = true;
    }
    if (!blocked) out.push(t);
  }
  return out;
}
