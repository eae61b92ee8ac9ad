// `@cadre/core`: the product surface. The scripted offline model, fault injection and test helpers are
// `@cadre/core/testing`; the benchmarks are `@cadre/core/bench`.
export * from "./types.js";
export * from "./errors.js";
export * from "./secrets/redact.js";
export { countTokens } from "./tokens.js";
export * from "./event-queue.js";
export * from "./agent/tool.js";
export * from "./agent/base-agent.js";
export * from "./harness/pi/translate.js";
export * from "./harness/pi/pi-model.js";
export * from "./harness/pi/pi-agent.js";
export * from "./harness/claude-code/index.js";
export * from "./harness/codex/index.js";
export * from "./mcp/index.js";
export * from "./models/registry.js";
export * from "./models/prices.js";
// Pi's stream-function protocol, for wrappers around a provider call (evals' record/replay cassettes).
export {
  createAssistantMessageEventStream,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type Context as PiContext,
} from "@mariozechner/pi-ai";
export type { StreamFn } from "@mariozechner/pi-agent-core";
export * from "./prompt/assemble.js";
export * from "./prompt/tool-list.js";
export * from "./prompt/prefix-guard.js";
export * from "./prompt/anthropic-breakpoints.js";
export * from "./prompt/lock.js";
export * from "./models/user-models.js";
export * from "./usage/accounting.js";
export * from "./usage/normalise.js";
export * from "./usage/cache-metrics.js";
export * from "./context/index.js";
export * from "./session/index.js";
export { PI_CODING_TOOLS, type PiCodingTool } from "./harness/pi/constants.js";
export { outsideWorkspace } from "./harness/workspace-guard.js";
export { BOOTSTRAP_SEPARATOR, boundItems } from "./harness/pi/transcript.js";
export { isSummaryRequest, readSummaryRequest, type SummaryRequest } from "./harness/pi/summary-request.js";
export { DEFAULT_PROMPT_TIMEOUT_MS, promptTimeoutText } from "./harness/pi/constants.js";
export { DEFAULT_PI_BYTE_BUDGET, type PiByteBudget } from "./harness/pi/request-bytes.js";
export * from "./translators/index.js";
