// The environment a Cadre-run Claude Code process gets. The SDK hands Claude Code exactly this
// environment (it does not merge it with ours), so Cadre's defaults are applied here, once:
//  - native compaction stays on (MC-8): the switches that would turn it off are removed;
//  - non-essential traffic is off unless the operator set the variable: no update checks, telemetry,
//    error reports or title-generation calls (with 2.1.332, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 is
//    the one switch that stops its calls to api.anthropic.com and its extra title request);
//  - Claude Code's own retries of a failing model request are bounded: by default it retries
//    10 times with growing waits, so a dead, 500 or 429 endpoint held a wake for ~200 s; with 2 a wake
//    against one ends within ~10 s, saying each retry as it happens (the translator's api_retry). The
//    operator's own CLAUDE_CODE_MAX_RETRIES wins;
//  - a loopback model server (ANTHROPIC_BASE_URL on 127.0.0.1/localhost) needs no key: when none is
//    set, Claude Code gets a placeholder, because it refuses to start without one ("Not logged in").
import { isLoopbackUrl } from "../loopback.js";
import { keepNativeCompaction } from "./compact-command.js";
import { CLAUDE_CODE_KEY_ENVS } from "./credentials.js";

export const NONESSENTIAL_TRAFFIC_ENV = "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC";

/** Claude Code's bound on its retries of one model request. */
export const MAX_RETRIES_ENV = "CLAUDE_CODE_MAX_RETRIES";

/** Cadre's default for it: a failing provider ends the wake fast, with its reason. */
export const DEFAULT_CLAUDE_CODE_RETRIES = 2;

/** What Claude Code is given as its key for a loopback model server when no key is set (never a real key). */
export const LOOPBACK_PLACEHOLDER_KEY = "cadre-loopback-no-key";

/** True when the environment points Claude Code at a model server on this machine. */
export function claudeCodeUsesLoopback(env: Readonly<Record<string, string | undefined>>): boolean {
  return isLoopbackUrl(env["ANTHROPIC_BASE_URL"]);
}

export function claudeCodeEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const out = keepNativeCompaction(env);
  if (out[NONESSENTIAL_TRAFFIC_ENV] === undefined) out[NONESSENTIAL_TRAFFIC_ENV] = "1";
  if (out[MAX_RETRIES_ENV] === undefined) out[MAX_RETRIES_ENV] = String(DEFAULT_CLAUDE_CODE_RETRIES);
  if (claudeCodeUsesLoopback(out) && !CLAUDE_CODE_KEY_ENVS.some((name) => out[name]))
    out["ANTHROPIC_API_KEY"] = LOOPBACK_PLACEHOLDER_KEY;
  return out;
}
