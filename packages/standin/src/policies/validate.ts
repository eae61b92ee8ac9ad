// Checks that a value is a Reply, naming the first thing wrong, so a bad policy (a typo in a JSON
// script, a function returning nothing) is a clear error instead of a half-written response.
import type { ErrorKind, Reply } from "../types.js";

const KINDS: readonly ErrorKind[] = [
  "invalid_request",
  "context_overflow",
  "authentication",
  "permission",
  "not_found",
  "rate_limit",
  "server",
  "overloaded",
];
const THEN = ["reset", "end", "hang", "error"];

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function errorProblem(e: unknown, at: string): string | null {
  if (!isObj(e)) return `${at} must be an object like {"kind": "rate_limit"}`;
  if (!KINDS.includes(e["kind"] as ErrorKind))
    return `${at}.kind must be one of ${KINDS.join(", ")} (got ${JSON.stringify(e["kind"])})`;
  if (e["status"] !== undefined && !Number.isInteger(e["status"]))
    return `${at}.status must be an HTTP status number`;
  return null;
}

function blockProblem(b: unknown, at: string): string | null {
  if (!isObj(b)) return `${at} must be an object`;
  if (b["type"] === "text") return typeof b["text"] === "string" ? null : `${at}.text must be a string`;
  if (b["type"] === "thinking")
    return typeof b["thinking"] === "string" ? null : `${at}.thinking must be a string`;
  if (b["type"] === "tool_call")
    return typeof b["name"] === "string" && b["name"] ? null : `${at}.name must be the tool's name`;
  return `${at}.type must be text, thinking or tool_call (got ${JSON.stringify(b["type"])})`;
}

/** Null when `value` is a valid Reply; else what is wrong, starting with `at`. */
export function replyProblem(value: unknown, at = "reply"): string | null {
  if (!isObj(value)) return `${at} must be an object (an answer with content, an error, or a hang)`;
  if (value["type"] === "hang") return null;
  if (value["type"] === "error") {
    const retry = value["retryAfterSeconds"];
    if (retry !== undefined && (typeof retry !== "number" || retry < 0))
      return `${at}.retryAfterSeconds must be a number >= 0`;
    return errorProblem(value["error"], `${at}.error`);
  }
  if (value["type"] !== undefined && value["type"] !== "answer")
    return `${at}.type must be answer, error or hang (got ${JSON.stringify(value["type"])})`;
  if (!Array.isArray(value["content"])) return `${at}.content must be a list of blocks`;
  for (const [i, b] of value["content"].entries()) {
    const problem = blockProblem(b, `${at}.content[${i}]`);
    if (problem) return problem;
  }
  const cut = value["cut"];
  if (cut !== undefined) {
    if (!isObj(cut) || !Number.isInteger(cut["afterEvents"]) || (cut["afterEvents"] as number) < 0)
      return `${at}.cut.afterEvents must be a whole number >= 0`;
    if (!THEN.includes(cut["then"] as string)) return `${at}.cut.then must be one of ${THEN.join(", ")}`;
    if (cut["error"] !== undefined) return errorProblem(cut["error"], `${at}.cut.error`);
  }
  return null;
}

export function isReply(value: unknown): value is Reply {
  return replyProblem(value) === null;
}
