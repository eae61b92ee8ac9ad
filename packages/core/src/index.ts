// `@cadre/core`: the product surface. The offline connector's scripted model and fault injection are
// `@cadre/core/offline` (loaded on demand); test helpers are `@cadre/core/testing`; the benchmarks
// are `@cadre/core/bench`.
// The event and snapshot vocabulary every harness speaks, whole: its types name one another.
export * from "./types.js";
export {
  ConflictStateError,
  errorMessage,
  InternalError,
  NotFoundError,
  ProviderError,
  UserInputError,
} from "./errors.js";
export { Redactor } from "./secrets/redact.js";
export { countTokens } from "./tokens.js";
export { EventQueue } from "./event-queue.js";
export { textOutcome, type ToolDefinition, type ValidationResult } from "./agent/tool.js";
export { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "./agent/base-agent.js";
export { PiAgent, type PiAgentOptions } from "./harness/pi/pi-agent.js";
export {
  CLAUDE_CODE_KEY_ENVS,
  ClaudeCodeAgent,
  type ClaudeCodeAgentOptions,
  claudeCodeCredentials,
  type ClaudeCodePolicy,
  claudeCodePolicyProblem,
  type CredentialCheck,
  locateClaudeCode,
  type Located,
  parseClaudeCodePolicy,
  workspaceRules,
} from "./harness/claude-code/index.js";
export {
  CODEX_KEY_ENVS,
  type CodexAgentOptions,
  codexCredentials,
  codexHome,
  type CodexPolicy,
  type CodexProvider,
  EXEC_YIELD_CONTINUATION_TEMPLATE,
  locateCodex,
  parseCodexPolicy,
  rolloutCalls,
} from "./harness/codex/index.js";
export { callTool, mcpToolName, serveToolsOverStdio, TOOL_SERVER_NAME } from "./mcp/index.js";
export {
  findModel,
  listModels,
  localModelIdProblem,
  modelIdProblem,
  OFFLINE_MODEL_ID,
  OFFLINE_SMALL_MODEL_ID,
  registerCompatibleModel,
  resolveModel,
} from "./models/registry.js";
export { costOf, priceAt, type PriceEntry } from "./models/prices.js";
// Pi's stream-function protocol, for wrappers around a provider call (evals' record/replay cassettes).
export {
  createAssistantMessageEventStream,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type Context as PiContext,
} from "@mariozechner/pi-ai";
export type { StreamFn } from "@mariozechner/pi-agent-core";
export {
  type AssembledPrompt,
  assembleSystemPrompt,
  type PromptSegment,
  type SegmentInput,
} from "./prompt/assemble.js";
export { toolListHash, type ToolShape } from "./prompt/tool-list.js";
export { type ModelCallPrefix, StablePrefixGuard } from "./prompt/prefix-guard.js";
export {
  comparePromptLock,
  type LockedText,
  type PromptLock,
  type PromptLockComparison,
  type PromptLockRecord,
  sha256,
} from "./prompt/lock.js";
export { loadUserModels } from "./models/user-models.js";
export {
  addUsage,
  cacheHitRate,
  combineSummaries,
  emptyUsage,
  summariseUsage,
  usageCost,
  type UsageSummary,
} from "./usage/accounting.js";
export { openaiUsage } from "./usage/normalise.js";
export { firstDifferingByte, theoreticalMaxHitRate } from "./usage/cache-metrics.js";
export {
  assessModelSwitch,
  buildHandoff,
  decideCompression,
  HARNESS_KINDS,
  type ModelSwitchVerdict,
  type TimeoutKind,
  timeoutPolicy,
  type TranscriptItem,
} from "./context/index.js";
export {
  type ContextReport,
  contextReportOf,
  decideRecovery,
  type HarnessSessionState,
  type SessionBootstrap,
  type SessionContinuation,
} from "./session/index.js";
export { PI_CODING_TOOLS, type PiCodingTool } from "./harness/pi/constants.js";
export { outsideWorkspace } from "./harness/workspace-guard.js";
export { BOOTSTRAP_SEPARATOR, boundItems } from "./harness/pi/transcript.js";
export { isSummaryRequest, readSummaryRequest, type SummaryRequest } from "./harness/pi/summary-request.js";
export { DEFAULT_PROMPT_TIMEOUT_MS, promptTimeoutText } from "./harness/pi/constants.js";
export { DEFAULT_PI_BYTE_BUDGET, type PiByteBudget } from "./harness/pi/request-bytes.js";
export {
  INPUT_ERROR_CODES,
  isTranslatorFormat,
  MALFORMED_INPUT,
  reconstructMessages,
  STREAM_FAILURE,
  TRANSLATOR_FORMATS,
  type TranslatorFormat,
  TRANSLATORS,
} from "./translators/index.js";
