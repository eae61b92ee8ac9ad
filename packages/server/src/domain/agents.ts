// Removing an agent (the legacy DELETE route, kept for the UI by C4-6). Only the HTTP API offers
// this so far; it belongs in @cadre/company and moves there when another path needs it. The agent,
// its keys, the activity rows and the CEO's mode change (if any) are written together; the CEO
// cannot be removed (every company has one).
import { loadCompanyState } from "@cadre/company";
import { ConflictStateError, NotFoundError } from "@cadre/core";
import type { AgentRow, Store } from "@cadre/store";

/** Idempotent: removing an agent already terminated returns it unchanged and writes nothing. */
export async function terminateAgent(store: Store, agentId: string): Promise<AgentRow> {
  return store.transaction(async (tx) => {
    const agent = await tx.getAgent(agentId);
    if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
    if (agent.isCeo) throw new ConflictStateError(`${agent.name} is the company's CEO and cannot be removed`);
    if (agent.status === "terminated") return agent;
    const before = await loadCompanyState(tx, agent.companyId);
    await tx.setAgentStatus(agentId, "terminated");
    const revoked = await tx.revokeApiTokens({ agentId });
    await tx.insertActivity({ companyId: agent.companyId, agentId, runId: null, type: "agent.terminated", data: { agentId, name: agent.name, role: agent.role, keysRevoked: revoked } });
    const after = await loadCompanyState(tx, agent.companyId);
    if (after.mode !== before.mode) {
      await tx.insertActivity({ companyId: agent.companyId, agentId: after.ceo.id, runId: null, type: "mode.changed", data: { from: before.mode, to: after.mode, reason: after.modeReason } });
    }
    return { ...agent, status: "terminated" };
  });
}
