// Vendor-stream translators: each turns a captured vendor stream (stdin chunks) into AgentEvents.
export {
  isTranslatorFormat,
  TRANSLATOR_FORMATS,
  TRANSLATORS,
  type TranslatorFormat,
  type VendorTranslator,
} from "./registry.js";
export { reconstructMessages, type FinalContent, type FinalMessage } from "./final.js";
export { INPUT_ERROR_CODES, MALFORMED_INPUT, STREAM_FAILURE, TRUNCATED } from "./errors.js";
export { runJsonl, runSse, type ByteStream, type RecordTranslator, type SseTranslator } from "./drive.js";
export { SseParser, type SseHandler } from "./sse.js";
export { JsonlParser } from "./jsonl.js";
export {
  createAnthropicState,
  endAnthropic,
  translateAnthropicEvent,
  type AnthropicState,
} from "./anthropic-sse/events.js";
// Whole-stream translators, and per-record ones for a live harness that already has parsed events or lines.
export { anthropicSseTranslator, translateAnthropicSse } from "./anthropic-sse/translator.js";
export { openaiChatSseTranslator, translateOpenAIChatSse } from "./openai-chat-sse/translator.js";
export {
  openaiResponsesSseTranslator,
  translateOpenAIResponsesSse,
} from "./openai-responses-sse/translator.js";
