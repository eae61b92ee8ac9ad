// Adding a connector to an existing company. Only the HTTP API offers this so far; it belongs in
// @cadre/company and moves there when another path (CLI, web) needs it. Rules as at company creation
// (id format, explicit model ids of the connector's own provider), plus: no secret in config.
import { CONNECTOR_KINDS, connectorLabel, defaultEnabledModels, validateEnabledModels } from "@cadre/company";
import { ConflictStateError, UserInputError } from "@cadre/core";
import type { ConnectorKind, ConnectorRow, Store } from "@cadre/store";
import { isSecretKey } from "../routes/views.js";

export interface AddConnectorInput {
  id?: string;
  kind: ConnectorKind;
  enabledModels?: string[];
  config?: Record<string, unknown>;
}

export async function addConnector(store: Store, companyId: string, input: AddConnectorInput): Promise<ConnectorRow> {
  if (!CONNECTOR_KINDS.includes(input.kind)) throw new UserInputError(`kind must be one of: ${CONNECTOR_KINDS.join(", ")}`, { kind: CONNECTOR_KINDS.join(", ") });
  const id = input.id ?? input.kind;
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) throw new UserInputError(`connector id "${id}" is not valid: lowercase letters, digits and -, at most 64`, { id: "lowercase letters, digits and -" });
  const secret = Object.keys(input.config ?? {}).find(isSecretKey);
  if (secret) {
    throw new UserInputError(`config.${secret} looks like a secret; secrets are never stored. Put the key in the server's environment and name the variable with config.apiKeyEnv`, { config: `no secrets (${secret})` });
  }
  const enabledModels = input.enabledModels ?? defaultEnabledModels(input.kind);
  validateEnabledModels(input.kind, enabledModels);
  return store.transaction(async (tx) => {
    if (await tx.getConnector(companyId, id)) throw new ConflictStateError(`company ${companyId} already has a connector "${id}"`);
    const row = await tx.insertConnector({ companyId, id, kind: input.kind, label: connectorLabel(input.kind), enabledModels, config: input.config ?? {} });
    await tx.insertActivity({ companyId, agentId: null, runId: null, type: "connector.added", data: { connectorId: id, kind: input.kind, enabledModels } });
    return row;
  });
}
