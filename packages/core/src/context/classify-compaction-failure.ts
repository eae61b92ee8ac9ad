// MC-9: the ONE failure classifier shared by every compaction path (silent post-turn compact,
// manual compact, rewind/cancel bridge compact, Pi native threshold/overflow compact, Codex
// remote compact). Whether a class latches `needsRollover` is the controller's decision (a failed
// manual compact never latches); this function only says what kind of failure it was.

import type { HarnessKind } from "./harness-kind.js";

export type CompactionPath = "silent" | "manual" | "rewind" | "cancel";

export interface CompactionFailureInput {
  status?: number;
  code?: string;
  /** The protocol's error text (never stderr: MC-11). */
  message?: string;
  harness: HarnessKind;
  path: CompactionPath;
  /** The summary the compaction produced, when it reported one. Blank means "empty summary". */
  summary?: string;
}

export type CompactionFailureClass = "deterministic" | "transient" | "not-a-compaction-failure";

export interface CompactionFailureVerdict {
  kind: CompactionFailureClass;
  reason: string;
}

const INVALID_ENCRYPTED_CONTENT = "invalid_encrypted_content";
// Codex reports its remote compaction task failing with this text ("Error running remote compact task").
const REMOTE_COMPACT_MARKER = /remote compact task/i;

const INVALID_REQUEST_CODES: ReadonlySet<string> = new Set(["invalid_request_error", "invalid_request"]);
const INVALID_REQUEST_MESSAGE = /invalid[_ ]request/i;
// Claude Code 2.1.332 answers a compact whose request stays too long (a 400 "prompt is too long",
// retried three times with less history) with only this text: the invalid-request 400 behind it is
// deterministic (seen on the real binary against a stand-in).
const CLAUDE_CODE_IRREDUCIBLE = /could not be reduced below the context limit/i;

const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "overloaded_error",
  "rate_limit_error",
  "rate_limit_exceeded",
  "api_error",
  "server_error",
  "timeout",
  "network_error",
  "aborted",
  "AbortError",
  "ABORT_ERR",
  "ETIMEDOUT",
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
// Linear alternation without nested quantifiers: no catastrophic backtracking (MC-4).
const TRANSIENT_MESSAGE =
  /overloaded|rate.?limit|too many requests|timed out|timeout|network|socket hang up|econnreset|etimedout|service unavailable|bad gateway|gateway timeout|internal server error/i;

function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

function mentionsInvalidEncryptedContent(input: CompactionFailureInput): boolean {
  return (
    input.code === INVALID_ENCRYPTED_CONTENT || (input.message ?? "").includes(INVALID_ENCRYPTED_CONTENT)
  );
}

export function classifyCompactionFailure(input: CompactionFailureInput): CompactionFailureVerdict {
  const where = `${input.harness}/${input.path}`;

  // Checked first because OpenAI returns it as a 400: only the Codex remote compact task failing
  // with it is an official compact failure; alone it is stripped reasoning, not a rollover (MC-9).
  if (mentionsInvalidEncryptedContent(input)) {
    if (input.harness === "codex" && REMOTE_COMPACT_MARKER.test(input.message ?? "")) {
      return {
        kind: "deterministic",
        reason: `${where}: codex remote compact hard failure (invalid_encrypted_content)`,
      };
    }
    return {
      kind: "not-a-compaction-failure",
      reason: `${where}: lone invalid_encrypted_content (stripped reasoning) is not a rollover trigger`,
    };
  }

  // Structured evidence (status, code) outranks text, and transient evidence outranks an empty
  // summary: a compact that was overloaded has no summary because it never ran.
  if (input.status !== undefined) {
    if (input.status === 400)
      return { kind: "deterministic", reason: `${where}: invalid-request 400 on the compact path` };
    if (isTransientStatus(input.status))
      return {
        kind: "transient",
        reason: `${where}: HTTP ${input.status} is transient; retry the compact next turn`,
      };
  }
  if (input.code !== undefined) {
    if (INVALID_REQUEST_CODES.has(input.code))
      return { kind: "deterministic", reason: `${where}: ${input.code} on the compact path` };
    if (TRANSIENT_CODES.has(input.code))
      return {
        kind: "transient",
        reason: `${where}: ${input.code} is transient; retry the compact next turn`,
      };
  }
  if (input.summary !== undefined && input.summary.trim() === "") {
    return { kind: "deterministic", reason: `${where}: compaction produced an empty summary` };
  }
  const message = input.message ?? "";
  if (input.harness === "claude-code" && CLAUDE_CODE_IRREDUCIBLE.test(message))
    return {
      kind: "deterministic",
      reason: `${where}: the compact request stayed over the context limit (an invalid-request 400 behind Claude Code's "could not be reduced")`,
    };
  if (INVALID_REQUEST_MESSAGE.test(message))
    return { kind: "deterministic", reason: `${where}: invalid request on the compact path` };
  if (TRANSIENT_MESSAGE.test(message))
    return {
      kind: "transient",
      reason: `${where}: transient failure (${message.slice(0, 80)}); retry the compact next turn`,
    };

  // Unknown cause: never roll over on a guess (MC-12 "token budget broken" needs a deterministic
  // failure); retrying the compact next turn is the reversible choice.
  return {
    kind: "transient",
    reason: `${where}: unclassified compaction failure; retry next turn, never roll over on a guess`,
  };
}
