// Error events a translator produces about its input (not about the model call).
import type { AgentEvent } from "../types.js";

/** A line is not what the format requires; the translation stops there. */
export const MALFORMED_INPUT = "malformed_input";
/** The input ended before the vendor's end marker: a cut stream. */
export const TRUNCATED = "truncated";
/** The translator itself failed (a bug) or the input stream could not be read. */
export const STREAM_FAILURE = "stream_failure";

/** Codes that mean "bad input" to a caller such as `cadre translate` (exit 2). */
export const INPUT_ERROR_CODES: ReadonlySet<string> = new Set([MALFORMED_INPUT, TRUNCATED]);

const SNIPPET_LENGTH = 60;

/** The start of an offending text, quoted, so a message shows what was found. */
function snippet(text: string): string {
  return JSON.stringify(text.length > SNIPPET_LENGTH ? text.slice(0, SNIPPET_LENGTH) + "…" : text);
}

export function malformed(line: number, expected: string, got: string): AgentEvent {
  return {
    type: "error",
    code: MALFORMED_INPUT,
    message: `line ${line}: expected ${expected}, got ${snippet(got)}`,
  };
}

/** The input ended before the vendor's end marker `missing`; `cut` says what the parser saw (an unterminated last event or line). */
export function cutMessage(cut: string | undefined, missing: string): AgentEvent {
  return truncated(
    cut !== undefined ? `${cut}; the stream ended before ${missing}` : `the stream ended before ${missing}`,
  );
}

/** A new call began before the previous one ended: the previous one was cut. */
export function interrupted(ended: string, by: string): AgentEvent {
  return truncated(`${by} came before ${ended}: the previous call was cut`);
}

export function truncated(message: string): AgentEvent {
  return { type: "error", code: TRUNCATED, message, retryable: false };
}

export function streamFailure(err: unknown): AgentEvent {
  return { type: "error", code: STREAM_FAILURE, message: err instanceof Error ? err.message : String(err) };
}
