// `@cadre/core/sessions`: the harness sessions, kept off the main entry so that code which only
// reads (the CLI's read-only commands) never loads them or what they import (pi-ai, the SDKs).
import { loadPiSdk } from "./harness/pi/sdk.js";
import { countTokens } from "./tokens.js";

export { PiAgent, type PiAgentOptions } from "./harness/pi/pi-agent.js";
export { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./harness/claude-code/claude-code-agent.js";
export { CodexAgent, type CodexAgentOptions } from "./harness/codex/codex-agent.js";

/**
 * Loads the Pi harness now — the Pi coding agent's SDK (with pi-ai), the model providers Pi loads
 * when a connector first streams through them, the offline model — and the tokenizer's tables: a
 * long-running process that runs wakes (`cadre worker`) does it once before taking any, so no wake
 * pays for it. The Claude Code and Codex SDKs load on their first session.
 */
export async function preloadPiHarness(): Promise<void> {
  countTokens("warm");
  await Promise.all([
    loadPiSdk(),
    import("./offline/index.js"),
    import("@mariozechner/pi-ai/anthropic"),
    import("@mariozechner/pi-ai/openai-completions"),
    import("@mariozechner/pi-ai/openai-responses"),
  ]);
}
