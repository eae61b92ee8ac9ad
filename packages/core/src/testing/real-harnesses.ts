// The real harness binaries for tests: Claude Code and Codex ship inside their SDK packages
// and run fully offline against a loopback stand-in model server, so tests drive them, not fakes.
// These helpers find the binaries and build environments that cannot reach the network: a temp HOME
// (and CLAUDE_CONFIG_DIR / CODEX_HOME inside it), loopback base URLs only, telemetry and every other
// non-essential traffic off. A test skips, saying why, where a binary is not installed (another
// platform); on linux-x64 CI both are.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { bundledClaudeCode } from "../harness/claude-code/locate.js";
import { bundledCodex } from "../harness/codex/locate.js";
import { isLoopbackUrl } from "../harness/loopback.js";

/** The Claude Code binary of @anthropic-ai/claude-agent-sdk's platform package, when installed. */
export const REAL_CLAUDE_CODE: string | undefined = bundledClaudeCode();
/** The Codex binary of @openai/codex's platform package, when installed. */
export const REAL_CODEX: string | undefined = bundledCodex();

function loopbackOnly(url: string): string {
  if (!isLoopbackUrl(url)) throw new Error(`a test may only point a harness at loopback, not ${url}`);
  return url;
}

/** Claude Code against a loopback Anthropic stand-in: nothing it does leaves the machine. */
export function claudeCodeTestEnv(home: string, anthropicBaseUrl: string): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    ANTHROPIC_BASE_URL: loopbackOnly(anthropicBaseUrl),
    ANTHROPIC_API_KEY: "sk-ant-standin-not-a-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1",
  };
}

/**
 * Codex with a temp HOME/CODEX_HOME. Its model server is the connector's `baseUrl` (a custom
 * provider, loopback in tests); the adapter itself turns off plugins sync and analytics.
 */
export function codexTestEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(join(home, ".codex"), { recursive: true });
  return { PATH: process.env["PATH"] ?? "", HOME: home, CODEX_HOME: join(home, ".codex"), ...extra };
}

/** Asserts a URL is loopback (for a Codex provider base URL in a test). */
export function loopbackBaseUrl(url: string): string {
  return loopbackOnly(url);
}
