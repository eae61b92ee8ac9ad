// Which models a connector routes (MC-6). Vendor connectors route the registry's explicit ids of
// their provider. An OpenAI-compatible endpoint (and Codex with a model provider's baseUrl) routes
// the models it declares in `config.models` — `[{ id, contextWindow, maxOutput? }]`, explicit by
// construction (no latest tag, no vendor alias; judged by the endpoint's listing, connector-served.ts) — or models declared for the whole data dir
// (cadre.config.json / CADRE_MODELS). Every entry point asks here: connector add, hire_agent, the
// model switch, the session.
import {
  localModelIdProblem,
  type ModelInfo,
  modelIdProblem,
  resolveModel,
  UserInputError,
} from "@cadre/core";
import type { ConnectorKind } from "@cadre/model";
import type { ConnectorRow } from "@cadre/store";
import type { ModelDeclarationInput } from "./connector-config.js";
import { driverOf } from "./kinds/index.js";

type ConnectorLike = Pick<ConnectorRow, "kind" | "config">;

/** True when the connector's endpoint serves models it declares itself. */
export function declaresModels(connector: ConnectorLike): boolean {
  return driverOf(connector.kind).declaresModels(connector);
}

/** The default output budget of a declared model: a quarter of its window, at most 8192 tokens. */
export function defaultMaxOutput(contextWindow: number): number {
  return Math.max(1, Math.min(8192, Math.floor(contextWindow / 4)));
}

/** The models the connector declares (only well-formed entries: a store written earlier may hold others). */
export function declaredModels(connector: ConnectorLike): ModelDeclarationInput[] {
  const raw = connector.config["models"];
  if (!declaresModels(connector) || !Array.isArray(raw)) return [];
  return raw.filter(
    (m): m is ModelDeclarationInput =>
      typeof m === "object" &&
      m !== null &&
      typeof (m as { id?: unknown }).id === "string" &&
      Number.isInteger((m as { contextWindow?: unknown }).contextWindow),
  );
}

function declaredInfo(m: ModelDeclarationInput): ModelInfo {
  return {
    id: m.id,
    provider: "openai-compatible",
    contextWindow: m.contextWindow,
    maxOutput: m.maxOutput ?? defaultMaxOutput(m.contextWindow),
    // Unknown: a declared model's cost is "unknown", never 0 (a company may price it in its settings).
    price: null,
  };
}

/** The model as this connector routes it, or undefined when it cannot (not declared, not in the registry for its provider). */
export function connectorModelInfo(connector: ConnectorLike, id: string): ModelInfo | undefined {
  const declared = declaredModels(connector).find((m) => m.id === id);
  if (declared) return declaredInfo(declared);
  if (modelIdProblem(id)) return undefined;
  const info = resolveModel(id);
  return driverOf(connector.kind).providers(connector).includes(info.provider) ? info : undefined;
}

export interface ConnectorModelProblem {
  kind: "alias" | "not enabled" | "not routable";
  message: string;
  /** "allowed on connector "x": a, b" */
  allowed: string;
  /** The explicit ids an alias could mean (empty for the other kinds). */
  candidates: string[];
}

/**
 * Why `id` cannot run on this connector (an alias, not enabled on it, or not routable by it), or
 * undefined. An alias gets the alias answer first, naming the explicit ids (MC-6).
 */
export function connectorModelProblem(
  connector: ConnectorLike & Pick<ConnectorRow, "id" | "enabledModels">,
  id: string,
): ConnectorModelProblem | undefined {
  const allowed = `allowed on connector "${connector.id}": ${connector.enabledModels.join(", ") || "none"}`;
  const declared = declaredModels(connector).some((m) => m.id === id);
  const alias = declared ? undefined : modelIdProblem(id);
  if (alias?.kind === "alias")
    return { kind: "alias", message: alias.message, allowed, candidates: alias.candidates };
  if (!connector.enabledModels.includes(id))
    return {
      kind: "not enabled",
      message: `"${id}" is not enabled on connector "${connector.id}"`,
      allowed,
      candidates: [],
    };
  if (!connectorModelInfo(connector, id))
    return {
      kind: "not routable",
      message: `"${id}" is not a model connector "${connector.id}" can route (${alias?.message ?? "not declared with its context window"})`,
      allowed,
      candidates: [],
    };
  return undefined;
}

/** The model as this connector routes it; a UserInputError naming the allowed ones otherwise. */
export function resolveConnectorModel(
  connector: ConnectorLike & Pick<ConnectorRow, "id" | "enabledModels">,
  id: string,
): ModelInfo {
  const problem = connectorModelProblem(connector, id);
  if (problem) throw new UserInputError(`${problem.message}; ${problem.allowed}`, { model: problem.allowed });
  return connectorModelInfo(connector, id) as ModelInfo;
}

const declareHint = (id: string) =>
  `declare it with its context window: --context-window N (cadre connectors add), or config.models [{ "id": "${id}", "contextWindow": N }]`;

/**
 * Checks a connector's models before it is stored: each declared model is explicit (MC-6) and
 * declared once; each enabled model is declared here, or an explicit registry id of the
 * connector's provider. Throws a UserInputError naming each bad field; nothing is written.
 */
export function validateConnectorModels(
  kind: ConnectorKind,
  enabledModels: readonly string[],
  config: Record<string, unknown> = {},
): void {
  const fields: Record<string, string> = {};
  const connector = { kind, config };
  const raw = config["models"];
  if (raw !== undefined && !declaresModels(connector)) {
    fields["config.models"] =
      driverOf(kind).declaredModelsProblem?.(connector) ??
      `declares models of an OpenAI-compatible endpoint; a ${kind} connector runs the registry's explicit ids (cadre models list)`;
  }
  const seen = new Set<string>();
  for (const [i, m] of declaredModels(connector).entries()) {
    const problem = localModelIdProblem(m.id);
    if (problem) fields[`config.models[${i}].id`] = problem;
    else if (seen.has(m.id)) fields[`config.models[${i}].id`] = `"${m.id}" is declared twice`;
    seen.add(m.id);
  }
  for (const [i, id] of enabledModels.entries()) {
    if (seen.has(id)) continue;
    const where = `enabledModels[${i}]`;
    const alias = modelIdProblem(id);
    if (alias?.kind === "alias") {
      fields[where] = alias.message;
      continue;
    }
    if (declaresModels(connector) && alias?.kind === "unknown") {
      fields[where] = `model "${id}" is not declared: ${localModelIdProblem(id) ?? declareHint(id)}`;
      continue;
    }
    if (!connectorModelInfo(connector, id)) {
      const provider = driverOf(kind).providers(connector).join(" or ");
      const info = alias ? undefined : resolveModel(id);
      fields[where] = info
        ? `model "${id}" belongs to ${info.provider}, not to a ${kind} connector`
        : `unknown model "${id}"; explicit ${provider} ids: see cadre models list`;
    }
  }
  const entries = Object.entries(fields);
  if (entries.length === 0) return;
  throw new UserInputError(
    `connector: nothing was written. Fix: ${entries.map(([f, why]) => `\`${f}\` ${why}`).join("; ")}.`,
    fields,
  );
}
