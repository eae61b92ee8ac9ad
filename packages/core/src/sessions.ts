// `@cadre/core/sessions`: the harness sessions, kept off the main entry so that code which only
// reads (the CLI's read-only commands) never loads them or what they import (pi-ai, the SDKs).
import { loadPiSdk } from "./harness/pi/sdk.js";
import { countTokens } from "./tokens.js";

export { PiAgent, type PiAgentOptions } from "./harness/pi/pi-agent.js";
export { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./harness/claude-code/claude-code-agent.js";
export { CodexAgent, type CodexAgentOptions } from "./harness/codex/codex-agent.js";
// The offline connector's model and its failure rehearsal, loaded with the sessions: the static
// entry `@cadre/core/offline` is also what the offline scripts read their types and seeded random
// from, so loading it on demand would load them all with the main chunk.
export { createScriptedStreamFn } from "./offline/scripted-model.js";
export { injectFaults, REHEARSAL_PROMPT_TIMEOUT_MS } from "./offline/faults.js";

/**
 * Loads the Pi harness now — the Pi coding agent's SDK (with pi-ai), the model providers Pi loads
 * when a connector first streams through them (the offline model comes with this entry) — and the tokenizer's tables: a
 * long-running process that runs wakes (`cadre worker`) does it once before taking any, so no wake
 * pays for it. The Claude Code and Codex SDKs load on their first session.
 */
export async function preloadPiHarness(): Promise<void> {
  countTokens("warm");
  await Promise.all([
    loadPiSdk(),
    import("@mariozechner/pi-ai/anthropic"),
    import("@mariozechner/pi-ai/openai-completions"),
    import("@mariozechner/pi-ai/openai-responses"),
  ]);
}
