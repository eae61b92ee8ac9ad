// Changes to an existing company outside a wake: removing an agent (connectors: connectors/connector-admin.ts).
import { ConflictStateError, NotFoundError } from "@cadre/core";
import type { AgentRow, Store } from "@cadre/store";
import { loadCompanyState, recordModeChange } from "../state.js";

/**
 * Removes (terminates) an agent with its keys, its activity row and the CEO's mode change, if any,
 * in one transaction. The CEO cannot be removed. Idempotent: an agent already terminated is
 * returned unchanged and nothing is written.
 */
export async function terminateAgent(store: Store, agentId: string): Promise<AgentRow> {
  return store.transaction(async (tx) => {
    const agent = await tx.getAgent(agentId);
    if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
    if (agent.isCeo) throw new ConflictStateError(`${agent.name} is the company's CEO and cannot be removed`);
    if (agent.status === "terminated") return agent;
    const before = await loadCompanyState(tx, agent.companyId);
    await tx.setAgentStatus(agentId, "terminated");
    const revoked = await tx.revokeApiTokens({ agentId });
    await tx.insertActivity({
      companyId: agent.companyId,
      agentId,
      runId: null,
      type: "agent.terminated",
      data: { agentId, name: agent.name, role: agent.role, keysRevoked: revoked },
    });
    await recordModeChange(tx, before, null);
    return { ...agent, status: "terminated" };
  });
}
