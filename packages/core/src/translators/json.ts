// Small JSON helpers shared by the translators.

export type JsonObject = Record<string, unknown>;

/** Parses text that must hold a JSON object; undefined when it does not (the caller reports where). */
export function parseObject(text: string): JsonObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/**
 * Tool input from streamed argument text: the parsed value; `whenEmpty` when no text came
 * (Anthropic's start block input, `{}` for OpenAI); the raw text when it is not valid JSON,
 * so nothing is lost and a host's schema check rejects it instead of running a guess.
 */
export function parseToolInput(json: string, whenEmpty: unknown): unknown {
  if (json.length === 0) return whenEmpty;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** A number field or 0: vendors omit zero counters. */
export function count(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
