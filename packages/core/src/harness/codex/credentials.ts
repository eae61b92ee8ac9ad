// Which credential Codex would use, checked without starting it: an API key or access token in the
// environment, or the auth file `codex login` writes ($CODEX_HOME/auth.json, default ~/.codex).
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CredentialCheck } from "../claude-code/credentials.js";

export const CODEX_KEY_ENVS = ["CODEX_API_KEY", "OPENAI_API_KEY", "CODEX_ACCESS_TOKEN"] as const;

export function codexAuthFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env["CODEX_HOME"] || join(env["HOME"] || homedir(), ".codex"), "auth.json");
}

export function codexCredentials(env: NodeJS.ProcessEnv = process.env): CredentialCheck {
  for (const name of CODEX_KEY_ENVS) if (env[name]) return { ok: true, source: name };
  const file = codexAuthFile(env);
  if (existsSync(file)) return { ok: true, source: file };
  return {
    ok: false,
    missing: `no Codex credentials: none of ${CODEX_KEY_ENVS.join(", ")} is set and ${file} does not exist (set OPENAI_API_KEY, or run \`codex login\`)`,
  };
}
