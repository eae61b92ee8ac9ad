// The Pi harness's constants and pure helpers, apart from the modules that use pi-ai: code that only
// needs these (connector policies, the offline route, the prompt timeout's text) loads none of Pi.
import type { StreamFn } from "@mariozechner/pi-agent-core";

/**
 * The pi-ai api and provider of the offline model's route. The scripted model (`@cadre/core/offline`)
 * answers under them; they live here so the route needs nothing from the testing entry.
 */
export const OFFLINE_API = "cadre-offline";
export const OFFLINE_PROVIDER = "offline";

/**
 * Pi's coding tools a connector's policy may grant (`config.piTools`). grep and find are left out:
 * Pi downloads ripgrep/fd for them on first use, and nothing may download binaries at run time.
 */
export const PI_CODING_TOOLS = Object.freeze(["read", "bash", "edit", "write", "ls"] as const);
export type PiCodingTool = (typeof PI_CODING_TOOLS)[number];

export const DEFAULT_PROMPT_TIMEOUT_MS = 10 * 60_000;

/**
 * The offline connector's `prompt-timeout` rehearsal stalls a call; waiting ten minutes to watch
 * it would defeat the rehearsal, so a faulted stream function carries a shorter timeout here.
 * An explicit `promptTimeoutMs` still wins.
 */
export const REHEARSAL_PROMPT_TIMEOUT = Symbol.for("cadre.rehearsalPromptTimeoutMs");

export function rehearsalPromptTimeoutOf(streamFn: StreamFn | undefined): number | undefined {
  const value = (streamFn as { [REHEARSAL_PROMPT_TIMEOUT]?: unknown } | undefined)?.[
    REHEARSAL_PROMPT_TIMEOUT
  ];
  return typeof value === "number" ? value : undefined;
}

export function promptTimeoutText(ms: number): string {
  return `Pi prompt timeout: the model produced nothing for ${ms} ms; the call was aborted`;
}
