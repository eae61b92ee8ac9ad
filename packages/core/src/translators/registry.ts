// The format → translator registry behind `cadre translate --from FORMAT`.
import type { AgentEvent } from "../types.js";
import { translateAnthropicSse } from "./anthropic-sse/translator.js";
import { translateClaudeCodeJsonl } from "../harness/claude-code/translate/translator.js";
import { translateCodexJsonl } from "../harness/codex/translate/translator.js";
import type { ByteStream } from "./drive.js";
import { translateOpenAIChatSse } from "./openai-chat-sse/translator.js";
import { translateOpenAIResponsesSse } from "./openai-responses-sse/translator.js";
import { translatePiJsonl } from "../harness/pi/translate-jsonl.js";

/** A vendor-stream translator: stdin chunks in, AgentEvents out; never throws (failures are `error` events). */
export type VendorTranslator = (input: ByteStream) => AsyncIterable<AgentEvent>;

export const TRANSLATOR_FORMATS = [
  "anthropic-sse",
  "openai-chat-sse",
  "openai-responses-sse",
  "claude-code-jsonl",
  "codex-jsonl",
  "pi-jsonl",
] as const;

export type TranslatorFormat = (typeof TRANSLATOR_FORMATS)[number];

export const TRANSLATORS: Record<TranslatorFormat, VendorTranslator> = {
  "anthropic-sse": translateAnthropicSse,
  "openai-chat-sse": translateOpenAIChatSse,
  "openai-responses-sse": translateOpenAIResponsesSse,
  "claude-code-jsonl": translateClaudeCodeJsonl,
  "codex-jsonl": translateCodexJsonl,
  "pi-jsonl": translatePiJsonl,
};

export function isTranslatorFormat(name: string): name is TranslatorFormat {
  return Object.hasOwn(TRANSLATORS, name);
}
