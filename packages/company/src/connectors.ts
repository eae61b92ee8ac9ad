// Connector kinds and readiness (C4-9). Readiness is computed in code from what is really there
// (a credential in the environment, a base URL), never stored, so it cannot go stale.
import { OFFLINE_MODEL_ID, UserInputError, resolveModel } from "@cadre/core";
import { CONNECTOR_KINDS, type ConnectorKind } from "@cadre/model";
import type { ConnectorRow } from "@cadre/store";
import { harnessReadiness } from "./harness-connectors.js";

export interface Readiness {
  ready: boolean;
  /** What is missing, precisely, when not ready. */
  missing?: string;
}

interface KindSpec {
  label: string;
  defaultModels: string[];
  /** Environment variable holding the credential, when the kind needs one. */
  keyEnv?: string;
  /** Provider of the models it runs, when it is not the kind itself (a harness runs a vendor's models). */
  provider?: "anthropic" | "openai";
}

const KINDS: Record<ConnectorKind, KindSpec> = {
  offline: { label: "Offline scripted model (deterministic, no network)", defaultModels: [OFFLINE_MODEL_ID] },
  anthropic: {
    label: "Anthropic Messages API",
    defaultModels: ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"],
    keyEnv: "ANTHROPIC_API_KEY",
  },
  openai: {
    label: "OpenAI API",
    defaultModels: ["gpt-5-mini-2025-08-07", "gpt-5-2025-08-07"],
    keyEnv: "OPENAI_API_KEY",
  },
  "openai-compatible": { label: "OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp)", defaultModels: [] },
  "claude-code": {
    label: "Claude Code (agent harness, Claude Agent SDK)",
    defaultModels: ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"],
    provider: "anthropic",
  },
  codex: {
    label: "Codex (agent harness, Codex SDK)",
    defaultModels: ["gpt-5-2025-08-07", "gpt-5-mini-2025-08-07"],
    provider: "openai",
  },
};

function spec(kind: ConnectorKind): KindSpec {
  const found = (KINDS as Record<string, KindSpec>)[kind];
  if (!found)
    throw new UserInputError(
      `connector kind "${kind}" is not supported here; allowed: ${CONNECTOR_KINDS.join(", ")}`,
    );
  return found;
}

export function connectorLabel(kind: ConnectorKind): string {
  return spec(kind).label;
}

export function defaultEnabledModels(kind: ConnectorKind): string[] {
  return [...spec(kind).defaultModels];
}

/** The env var a connector reads its key from (config may name another one; the key itself is never stored). */
export function keyEnvOf(connector: Pick<ConnectorRow, "kind" | "config">): string | undefined {
  const configured = connector.config["apiKeyEnv"];
  return typeof configured === "string" && configured.length > 0 ? configured : spec(connector.kind).keyEnv;
}

export function readiness(
  connector: Pick<ConnectorRow, "kind" | "config" | "enabledModels">,
  env: NodeJS.ProcessEnv = process.env,
): Readiness {
  if (connector.enabledModels.length === 0) return { ready: false, missing: "no enabled models" };
  switch (connector.kind) {
    case "offline":
      return { ready: true };
    case "anthropic":
    case "openai": {
      const keyEnv = keyEnvOf(connector) as string;
      return env[keyEnv] ? { ready: true } : { ready: false, missing: `${keyEnv} is not set` };
    }
    case "openai-compatible": {
      const baseUrl = connector.config["baseUrl"];
      return typeof baseUrl === "string" && /^https?:\/\//.test(baseUrl)
        ? { ready: true }
        : { ready: false, missing: "config.baseUrl (http(s) URL of the endpoint) is not set" };
    }
    case "claude-code":
    case "codex":
      // The executable (configured, the SDK's bundled binary, or on PATH) and a credential.
      return harnessReadiness(connector.kind, connector, env);
    default:
      return { ready: false, missing: `the ${connector.kind} harness is not available in this build` };
  }
}

/** Validates a connector's enabled models against the registry (explicit ids only, MC-6). */
export function validateEnabledModels(kind: ConnectorKind, models: string[]): void {
  for (const id of models) {
    const info = resolveModel(id);
    const expected = spec(kind).provider ?? kind;
    if (info.provider !== expected)
      throw new UserInputError(`model "${id}" belongs to ${info.provider}, not to a ${kind} connector`);
  }
}

/** Picks the connector for a new company or the demo: the one asked for, else the first ready real one when its key is set, else offline. */
export function preferredConnectorKind(env: NodeJS.ProcessEnv = process.env): ConnectorKind {
  if (env["ANTHROPIC_API_KEY"]) return "anthropic";
  if (env["OPENAI_API_KEY"]) return "openai";
  return "offline";
}

const SECRET_KEY = /(key|secret|token|password|credential)/i;

/** True for a config key that would hold a secret rather than name where one is (e.g. apiKeyEnv). Secrets are never stored. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !/Env$/.test(key);
}
