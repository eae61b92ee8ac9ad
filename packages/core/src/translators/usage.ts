// Usage normalisation: `input` is uncached input only; cache reads/writes are separate.
import type { Usage } from "../types.js";
import { count } from "./json.js";

/** Anthropic: input_tokens already excludes cached tokens; cache counters are separate fields. */
export function anthropicUsage(
  u:
    | {
        input_tokens?: number | null;
        output_tokens?: number | null;
        cache_read_input_tokens?: number | null;
        cache_creation_input_tokens?: number | null;
      }
    | undefined,
): Usage {
  return {
    input: count(u?.input_tokens),
    output: count(u?.output_tokens),
    cacheRead: count(u?.cache_read_input_tokens),
    cacheWrite: count(u?.cache_creation_input_tokens),
  };
}

/** OpenAI: the prompt count includes the cached tokens, so uncached input = prompt − cached. */
export function openaiUsage(promptTokens: unknown, cachedTokens: unknown, outputTokens: unknown): Usage {
  const cached = count(cachedTokens);
  return {
    input: count(promptTokens) - cached,
    output: count(outputTokens),
    cacheRead: cached,
    cacheWrite: 0,
  };
}
