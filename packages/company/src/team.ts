// Changes to an existing company outside a wake: removing an agent, adding a connector. Both are
// domain operations shared by every path (HTTP API today, CLI and web tomorrow).
import { ConflictStateError, NotFoundError, UserInputError } from "@cadre/core";
import { CONNECTOR_KINDS, type ConnectorKind } from "@cadre/model";
import type { AgentRow, ConnectorRow, Store } from "@cadre/store";
import { connectorLabel, defaultEnabledModels, isSecretKey, validateEnabledModels } from "./connectors.js";
import { loadCompanyState, recordModeChange } from "./state.js";

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

export interface AddConnectorInput {
  id?: string;
  kind: ConnectorKind;
  enabledModels?: string[];
  config?: Record<string, unknown>;
}

/** Adds a connector with the rules of company creation (id format, explicit models of its provider) and no secret in config. */
export async function addConnector(
  store: Store,
  companyId: string,
  input: AddConnectorInput,
): Promise<ConnectorRow> {
  if (!CONNECTOR_KINDS.includes(input.kind))
    throw new UserInputError(`kind must be one of: ${CONNECTOR_KINDS.join(", ")}`, {
      kind: CONNECTOR_KINDS.join(", "),
    });
  const id = input.id ?? input.kind;
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id))
    throw new UserInputError(
      `connector id "${id}" is not valid: lowercase letters, digits and -, at most 64`,
      { id: "lowercase letters, digits and -" },
    );
  const secret = Object.keys(input.config ?? {}).find(isSecretKey);
  if (secret) {
    throw new UserInputError(
      `config.${secret} looks like a secret; secrets are never stored. Put the key in the server's environment and name the variable with config.apiKeyEnv`,
      { config: `no secrets (${secret})` },
    );
  }
  const enabledModels = input.enabledModels ?? defaultEnabledModels(input.kind);
  validateEnabledModels(input.kind, enabledModels);
  return store.transaction(async (tx) => {
    if (await tx.getConnector(companyId, id))
      throw new ConflictStateError(`company ${companyId} already has a connector "${id}"`);
    const row = await tx.insertConnector({
      companyId,
      id,
      kind: input.kind,
      label: connectorLabel(input.kind),
      enabledModels,
      config: input.config ?? {},
    });
    await tx.insertActivity({
      companyId,
      agentId: null,
      runId: null,
      type: "connector.added",
      data: { connectorId: id, kind: input.kind, enabledModels },
    });
    return row;
  });
}
