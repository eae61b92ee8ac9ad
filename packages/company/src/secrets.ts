// The keys a wake or a connector check is configured with, for the one redactor:
// every connector's key variable (`apiKeyEnv`, or its kind's default), the harnesses' credential
// variables, and any other variable of the environment named like a credential (…_API_KEY,
// …_TOKEN, …_SECRET, …_PASSWORD), so that a provider echoing any of them is redacted wherever its
// text goes. Values, never names, are what is redacted; names are never secret.
import { CLAUDE_CODE_KEY_ENVS, CODEX_KEY_ENVS, Redactor } from "@cadre/core";
import type { ConnectorRow } from "@cadre/store";
import { keyEnvOf } from "./connectors/readiness.js";

const CREDENTIAL_NAME = /(?:^|_)(?:API_?KEY|ACCESS_?KEY|AUTH_?TOKEN|TOKEN|SECRET|PASSWORD|PASSWD)$/i;

/** The names of the variables holding a key in `env` for these connectors (and any credential-named one). */
export function secretVariables(
  connectors: readonly Pick<ConnectorRow, "kind" | "config">[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const names = new Set<string>([...CLAUDE_CODE_KEY_ENVS, ...CODEX_KEY_ENVS]);
  for (const connector of connectors) {
    const name = keyEnvOf(connector);
    if (name) names.add(name);
  }
  for (const name of Object.keys(env)) if (CREDENTIAL_NAME.test(name)) names.add(name);
  return [...names].sort();
}

/** The redactor of a wake or a connector check: every key its environment holds for these connectors. */
export function secretsRedactor(
  connectors: readonly Pick<ConnectorRow, "kind" | "config">[],
  env: Readonly<Record<string, string | undefined>>,
): Redactor {
  return Redactor.of(secretVariables(connectors, env).map((name) => env[name]));
}
