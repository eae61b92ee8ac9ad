// What a wake loads on first use (the tokenizer's tables, Pi's SDK and the model providers Pi
// loads when a connector first streams through them), loaded ahead: a long-lived
// worker calls this once before it takes wakes, so no wake pays for the imports (a read-only CLI
// command never does, and so loads none of it).
import { loadPiSdk } from "./harness/pi/sdk.js";
import { countTokens } from "./tokens.js";

export async function preloadWakeModules(): Promise<void> {
  countTokens("warm");
  await Promise.all([
    loadPiSdk(),
    import("@mariozechner/pi-ai/anthropic"),
    import("@mariozechner/pi-ai/openai-completions"),
    import("@mariozechner/pi-ai/openai-responses"),
  ]);
}
