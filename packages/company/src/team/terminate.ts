// Changes to an existing company outside a wake: removing an agent (connectors: connectors/connector-admin.ts).
import { ConflictStateError, NotFoundError } from "@cadre/core";
import { isFinishedTask } from "@cadre/model";
import type { AgentRow, Store } from "@cadre/store";
import { loadCompanyState, recordModeChange } from "../state.js";
import { requestWakes } from "../work/requests.js";
import type { WakeIntent } from "../work/wake-rules.js";
import { agentWorkspace, archiveWorkspace } from "./workspace-lifecycle.js";

/** An open task of the terminated agent, given back: to whom (its creator, or the CEO). */
export interface ReturnedTask {
  taskId: string;
  title: string;
  /** The agent it is assigned to now, woken for it (`task_unassigned`). */
  toAgentId: string;
  toName: string;
}

export interface Termination {
  agent: AgentRow;
  /** Its open tasks, each back with its creator (or the CEO when the operator created it). */
  returned: ReturnedTask[];
  /** Its wake reasons still pending, cancelled: nobody works them now. */
  cancelledWakes: number;
  /** Where its workspace was moved (kept, not deleted), when it had one under the data directory given. */
  archivedWorkspace?: string;
}

export interface TerminateOptions {
  /** The data directory: the agent's workspace under it (or under the company's root) is archived. */
  dataDir?: string;
}

/**
 * Removes (terminates) an agent with its keys, its activity row and the CEO's mode change, if any,
 * in one transaction. Its open tasks never stay with it (nobody would ever work them): each goes
 * back to the agent that created it, or to the CEO when the operator did, as To do, and that agent
 * is woken for it (`task_unassigned`); its pending wake reasons are cancelled with a note. The CEO
 * cannot be removed. Idempotent: an agent already terminated is returned unchanged, nothing written.
 */
export async function terminateAgent(
  store: Store,
  agentId: string,
  options: TerminateOptions = {},
): Promise<Termination> {
  const done = await removeAgent(store, agentId);
  // After the commit (no file work inside a transaction): its workspace goes to the archive.
  if (options.dataDir === undefined || done.agent.status !== "terminated") return done;
  const company = await store.getCompany(done.agent.companyId);
  if (!company) return done;
  const archived = archiveWorkspace(agentWorkspace(company, done.agent, options.dataDir));
  return archived !== undefined ? { ...done, archivedWorkspace: archived } : done;
}

function removeAgent(store: Store, agentId: string): Promise<Termination> {
  return store.transaction(async (tx) => {
    const agent = await tx.getAgent(agentId);
    if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
    if (agent.isCeo) throw new ConflictStateError(`${agent.name} is the company's CEO and cannot be removed`);
    if (agent.status === "terminated") return { agent, returned: [], cancelledWakes: 0 };
    const before = await loadCompanyState(tx, agent.companyId);
    await tx.setAgentStatus(agentId, "terminated");
    const revoked = await tx.revokeApiTokens({ agentId });
    const note = `cancelled: ${agent.name} was terminated`;
    const pending = await tx.listWakeRequests({ agentId, status: "pending" });
    for (const r of pending)
      if (await tx.settleWakeRequest(r.id, { status: "dropped", note }))
        await tx.insertActivity({
          companyId: agent.companyId,
          agentId,
          runId: null,
          type: "wake.cancelled",
          data: { requestId: r.id, agentId, trigger: r.trigger, taskId: r.taskId, note },
        });
    const returned: ReturnedTask[] = [];
    const wakes: WakeIntent[] = [];
    const active = (id: string | null) =>
      before.activeAgents.find((a) => a.id === id && a.id !== agentId) ?? null;
    for (const task of await tx.listTasks(agent.companyId, { assigneeAgentId: agentId })) {
      if (isFinishedTask(task.status)) continue;
      const to = active(task.creatorAgentId) ?? before.ceo;
      // Nobody works it now: it waits for its new holder to start it or hand it on.
      const status = task.status === "in_progress" ? "todo" : task.status;
      await tx.updateTask(task.id, { assigneeAgentId: to.id, status });
      await tx.insertActivity({
        companyId: agent.companyId,
        agentId: null,
        runId: null,
        type: "task.assigned",
        data: {
          taskId: task.id,
          by: "system",
          via: "system",
          from: agentId,
          to: to.id,
          reason: `${agent.name} was terminated`,
        },
      });
      returned.push({ taskId: task.id, title: task.title, toAgentId: to.id, toName: to.name });
      wakes.push({
        agentId: to.id,
        trigger: "task_unassigned",
        taskId: task.id,
        cause: `task "${task.title}" (${task.id}) was assigned to ${agent.name}, who was terminated; it is back with you`,
      });
    }
    await requestWakes(tx, agent.companyId, wakes, "operator", null);
    await tx.insertActivity({
      companyId: agent.companyId,
      agentId,
      runId: null,
      type: "agent.terminated",
      data: {
        agentId,
        name: agent.name,
        role: agent.role,
        keysRevoked: revoked,
        tasksReturned: returned.map((t) => ({ taskId: t.taskId, to: t.toAgentId })),
        wakesCancelled: pending.length,
      },
    });
    await recordModeChange(tx, before, null);
    return { agent: { ...agent, status: "terminated" }, returned, cancelledWakes: pending.length };
  });
}
