// Changes to an existing company outside a wake: removing an agent, adding a connector. Both are
// domain operations shared by every path (HTTP API today, CLI and web tomorrow).
import { ConflictStateError, NotFoundError, UserInputError } from "@cadre/core";
import { CONNECTOR_KINDS, OneOf, type Static, Text } from "@cadre/model";
import type { AgentRow, ConnectorRow, Store } from "@cadre/store";
import { connectorLabel, defaultEnabledModels, isSecretKey, validateEnabledModels } from "./connectors.js";
import { Type } from "typebox";
import { checkInput } from "./input.js";
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

/** A connector id: readable by models, unique in its company. */
export const ConnectorId = Text({
  maxLength: 64,
  pattern: {
    source: "^[a-z0-9][a-z0-9-]*$",
    hint: "lowercase letters, digits and -, starting with a letter or digit",
  },
  description: "Id unique in the company (lowercase letters, digits, -); default: the kind.",
});

const RESERVED_KEYS = ["__proto__", "constructor", "prototype"];

/** How deep connector config may nest (the config object itself is level 1). */
export const MAX_CONFIG_DEPTH = 8;

/**
 * Whether `value` nests deeper than `max` levels of lists and objects, found without recursion: a
 * body may nest thousands of levels deep, and every recursive reader of it (the stores' JSON
 * serialisation among them) would overflow the stack — a 500 where the input is at fault.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Non-secret connector configuration: a flat map of settings, never a place for keys themselves. */
export const ConnectorConfig = Type.Refine(
  Type.Refine(
    Type.Record(Type.String(), Type.Unknown(), {
      maxProperties: 20,
      description: `Non-secret configuration: baseUrl, apiKeyEnv (the name of the variable holding the key), seed. At most ${MAX_CONFIG_DEPTH} levels deep.`,
    }),
    (config) => !nestsDeeperThan(config, MAX_CONFIG_DEPTH),
    () => `nests too deep; at most ${MAX_CONFIG_DEPTH} levels of objects and lists are allowed`,
  ),
  (config) => !RESERVED_KEYS.some((k) => Object.prototype.hasOwnProperty.call(config, k)),
  () => `must not use the keys ${RESERVED_KEYS.join(", ")}`,
);

export const addConnectorSchema = Type.Object(
  {
    id: Type.Optional(ConnectorId),
    kind: OneOf(CONNECTOR_KINDS, { description: "Harness and provider." }),
    enabledModels: Type.Optional(
      Type.Array(Text({ maxLength: 128 }), {
        maxItems: 20,
        description: "Explicit model ids of this provider; default: the kind's defaults.",
      }),
    ),
    config: Type.Optional(ConnectorConfig),
  },
  { additionalProperties: false },
);
export type AddConnectorInput = Static<typeof addConnectorSchema>;

/** Adds a connector with the rules of company creation (id format, explicit models of its provider) and no secret in config. */
export async function addConnector(
  store: Store,
  companyId: string,
  input: AddConnectorInput,
): Promise<ConnectorRow> {
  input = checkInput("connector", addConnectorSchema, input);
  const id = input.id ?? input.kind;
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
