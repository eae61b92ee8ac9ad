// Which credential Claude Code would sign in with, checked without starting it: an API key or token in
// the environment, a third-party cloud provider switch, or the credentials file `claude login` writes.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { isLoopbackUrl } from "../loopback.js";

export type CredentialCheck = { ok: true; source: string } | { ok: false; missing: string };

export const CLAUDE_CODE_KEY_ENVS = [
  "ANTHROPIC_API_KEY",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "ANTHROPIC_AUTH_TOKEN",
] as const;
const PROVIDER_SWITCHES = [
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CODE_USE_FOUNDRY",
] as const;

const truthy = (value: string | undefined) =>
  value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";

/** The file Claude Code keeps its login in: $CLAUDE_CONFIG_DIR/.credentials.json, default ~/.claude. */
export function claudeCodeCredentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env["CLAUDE_CONFIG_DIR"] || join(env["HOME"] || homedir(), ".claude"), ".credentials.json");
}

export function claudeCodeCredentials(env: NodeJS.ProcessEnv = process.env): CredentialCheck {
  for (const name of CLAUDE_CODE_KEY_ENVS) if (env[name]) return { ok: true, source: name };
  for (const name of PROVIDER_SWITCHES) if (truthy(env[name])) return { ok: true, source: name };
  const file = claudeCodeCredentialsFile(env);
  if (existsSync(file)) return { ok: true, source: file };
  // A model server on this machine (a stand-in, a local proxy): no key needed (environment.ts).
  if (isLoopbackUrl(env["ANTHROPIC_BASE_URL"]))
    return { ok: true, source: "none needed: ANTHROPIC_BASE_URL is a loopback model server" };
  return {
    ok: false,
    missing: `no Claude Code credentials: none of ${CLAUDE_CODE_KEY_ENVS.join(", ")} is set and ${file} does not exist (set ANTHROPIC_API_KEY, or run \`claude setup-token\` / \`claude login\`)`,
  };
}
