// The operator's connector operations — add, test, remove — shared by every path (`cadre
// connectors`, the HTTP API, the dashboard through it). One input schema; the credential, depth and
// size rules run before it; each refusal names the field, says what is allowed, and writes nothing.
import type { ValidationResult } from "@cadre/core";
import { ConflictStateError, NotFoundError, UserInputError } from "@cadre/core";
import { CONNECTOR_KINDS, describeProblems, OneOf, parse, type Static, Text } from "@cadre/model";
import type { ConnectorRow, Store } from "@cadre/store";
import { Type } from "typebox";
import { driverOf } from "./kinds/index.js";
import { connectorLabel, defaultEnabledModels, probeSpecs, refreshReadiness } from "./readiness.js";
import { ConnectorConfig, configProblems } from "./connector-config.js";
import { declaredModels, validateConnectorModels } from "./connector-models.js";
import { checkServedModels } from "./connector-served.js";
import { type ConnectorTestResult, runConnectorTest } from "./connector-test.js";
import { type ProbeBook, sharedProbes } from "./probe-cache.js";

/** A connector id: readable by models, unique in its company. */
export const ConnectorId = Text({
  maxLength: 64,
  pattern: {
    source: "^[a-z0-9][a-z0-9-]*$",
    hint: "lowercase letters, digits and -, starting with a letter or digit",
  },
  description: "Id unique in the company (lowercase letters, digits, -); default: the kind.",
});

export const addConnectorSchema = Type.Object(
  {
    id: Type.Optional(ConnectorId),
    kind: OneOf(CONNECTOR_KINDS, { description: "Harness and provider." }),
    enabledModels: Type.Optional(
      Type.Array(Text({ maxLength: 128 }), {
        maxItems: 20,
        description:
          "Explicit model ids agents may use on it: the registry's ids of its provider, or models declared in config.models. Default: the declared models, else the kind's defaults.",
      }),
    ),
    config: Type.Optional(ConnectorConfig),
  },
  { additionalProperties: false },
);
export type AddConnectorInput = Static<typeof addConnectorSchema>;

/** The add input checked: credentials, depth and size first (any depth, no recursion), then the schema. */
export function validateAddConnectorInput(raw: unknown): ValidationResult<AddConnectorInput> {
  const config =
    typeof raw === "object" && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)["config"]
      : undefined;
  const problems = configProblems(config);
  const parsed =
    Object.keys(problems).length > 0
      ? { ok: false as const, problems: { ...restProblems(raw as Record<string, unknown>), ...problems } }
      : parse(addConnectorSchema, raw);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    message: `connector: nothing was written. Fix: ${describeProblems(parsed.problems)}.`,
    fields: parsed.problems,
  };
}

/** The schema's problems with the rest of a body whose config is refused: one refusal names them all. */
function restProblems(raw: Record<string, unknown>): Record<string, string> {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(raw))
    if (key !== "config")
      Object.defineProperty(rest, key, {
        value: raw[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  const parsed = parse(addConnectorSchema, rest);
  return parsed.ok ? {} : parsed.problems;
}

function checked(raw: unknown): AddConnectorInput {
  const result = validateAddConnectorInput(raw);
  if (!result.ok) throw new UserInputError(result.message, result.fields);
  return result.value;
}

export interface ConnectorOptions {
  /** Readiness is computed against this environment (the server's, a wake's); default process.env. */
  env?: NodeJS.ProcessEnv;
  probes?: ProbeBook;
}

/**
 * Adds a connector: one transaction for the row and its `connector.added` activity, then (after
 * the commit) its probes run, so the caller can answer with its readiness measured.
 */
export async function addConnector(
  store: Store,
  companyId: string,
  raw: AddConnectorInput,
  options: ConnectorOptions = {},
): Promise<ConnectorRow> {
  const input = checked(raw);
  const id = input.id ?? input.kind;
  const config = (input.config ?? {}) as Record<string, unknown>;
  const declared = declaredModels({ kind: input.kind, config }).map((m) => m.id);
  const enabledModels =
    input.enabledModels ?? (declared.length > 0 ? declared : defaultEnabledModels(input.kind));
  validateConnectorModels(input.kind, enabledModels, config);
  // Asked before the transaction (never I/O inside one): an id the endpoint does not list is refused.
  const served = await checkServedModels(
    { kind: input.kind, config },
    enabledModels,
    options.env ?? process.env,
  );
  const row = await store.transaction(async (tx) => {
    if (!(await tx.getCompany(companyId))) throw new NotFoundError(`company ${companyId} not found`);
    if (await tx.getConnector(companyId, id))
      throw new ConflictStateError(`company ${companyId} already has a connector "${id}"`);
    const inserted = await tx.insertConnector({
      companyId,
      id,
      kind: input.kind,
      label: connectorLabel(input.kind),
      enabledModels,
      config,
      // The model is pinned by what the endpoint serves under its id (MC-6): a wake compares again.
      modelFingerprints: Object.fromEntries(
        served.flatMap((m) => (m.fingerprint !== null ? [[m.id, m.fingerprint]] : [])),
      ),
    });
    await tx.insertActivity({
      companyId,
      agentId: null,
      runId: null,
      type: "connector.added",
      data: {
        connectorId: id,
        kind: input.kind,
        enabledModels,
        ...(served.length > 0 ? { served } : {}),
      },
    });
    return inserted;
  });
  await refreshReadiness([row], options.env ?? process.env, options.probes ?? sharedProbes, { force: true });
  return row;
}

/**
 * Removes a connector, refused while an active agent runs on it (naming each) and for the built-in
 * offline connector. The row and a `connector.removed` activity are one transaction; terminated
 * agents keep naming it in their records.
 */
export async function removeConnector(
  store: Store,
  companyId: string,
  connectorId: string,
): Promise<ConnectorRow> {
  return store.transaction(async (tx) => {
    const connector = await tx.getConnector(companyId, connectorId);
    if (!connector) {
      const ids = (await tx.listConnectors(companyId)).map((c) => c.id);
      throw new NotFoundError(
        `connector "${connectorId}" not found in company ${companyId}; its connectors: ${ids.join(", ") || "none"}`,
      );
    }
    if (connector.kind === "offline" && connector.id === "offline")
      throw new ConflictStateError(
        `connector "offline" is built in: every company keeps its offline connector (nothing was removed)`,
      );
    const users = (await tx.listAgents(companyId, { status: "active" })).filter(
      (a) => a.connectorId === connectorId,
    );
    if (users.length > 0)
      throw new ConflictStateError(
        `connector "${connectorId}" is in use by ${users.map((a) => `${a.name} (${a.id})`).join(", ")}; nothing was removed. Move ${users.length === 1 ? "it" : "them"} first (cadre agents set-model AGENT MODEL --connector ID) or remove ${users.length === 1 ? "it" : "them"}`,
      );
    await tx.removeConnector(companyId, connectorId);
    await tx.insertActivity({
      companyId,
      agentId: null,
      runId: null,
      type: "connector.removed",
      data: { connectorId, kind: connector.kind },
    });
    return connector;
  });
}

/**
 * One minimal real request through the connector (see connector-test.ts), with the model given or
 * its first enabled one. Its outcome also refreshes the connector's readiness: an endpoint that
 * answered is probed again at once (what it serves now); one that did not answer is not ready.
 */
export async function testConnector(
  store: Store,
  companyId: string,
  connectorId: string,
  options: ConnectorOptions & { model?: string; timeoutMs?: number } = {},
): Promise<ConnectorTestResult> {
  const connector = await store.getConnector(companyId, connectorId);
  if (!connector) {
    const ids = (await store.listConnectors(companyId)).map((c) => c.id);
    throw new NotFoundError(
      `connector "${connectorId}" not found in company ${companyId}; its connectors: ${ids.join(", ") || "none"}`,
    );
  }
  const model = options.model ?? connector.enabledModels[0];
  if (model === undefined || !connector.enabledModels.includes(model))
    throw new UserInputError(
      `${model === undefined ? "the connector has no enabled model" : `"${model}" is not enabled on connector "${connector.id}"`}; allowed: ${connector.enabledModels.join(", ") || "none"}`,
      { model: `one of: ${connector.enabledModels.join(", ") || "none"}` },
    );
  const env = options.env ?? process.env;
  const probes = options.probes ?? sharedProbes;
  const result = await runConnectorTest(connector, model, env, options.timeoutMs ?? 30_000);
  const endpoints = probeSpecs(connector, env).filter((spec) => spec.kind === "endpoint");
  // An endpoint that answered is probed again, not just marked ok: the probe reads what it offers
  // under each model id, so a model replaced since it was declared shows as a drift after a test.
  if (result.answered) await probes.refresh(endpoints, { force: true });
  else
    for (const spec of endpoints)
      probes.record(spec, { ok: false, error: result.error ?? "no answer" }, result.latencyMs);
  // A harness's own probe (executable, credentials) runs again too: the test just started it.
  if (driverOf(connector.kind).harnessCheck)
    await refreshReadiness([connector], env, probes, { force: true });
  return result;
}
