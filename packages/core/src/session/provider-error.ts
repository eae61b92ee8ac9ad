// A failed model call, as the provider layer surfaced it, turned into the structured description
// the recovery rules read (MC-10, MC-11). pi-ai reports a vendor failure as an assistant message
// with stopReason "error" and the vendor SDK's text: "STATUS {json body}" (Anthropic),
// "STATUS message" (OpenAI), "Error Code CODE: message" (OpenAI Responses stream), or a bare
// message ("Request timed out.", "Anthropic stream ended before message_stop"). Only the protocol
// text is read here; stderr never reaches this function (MC-11).

import type { TurnErrorDescription } from "../context/index.js";

export type FailureKind = "context-overflow" | "timeout" | "network" | "other";

export interface ProviderFailure extends TurnErrorDescription {
  /** The text exactly as surfaced, for reports. */
  raw: string;
}

const STATUS_JSON = /^(\d{3})\s+(\{[\s\S]*\})\s*$/;
const STATUS_TEXT = /^(\d{3})\s+([\s\S]*)$/;
const ERROR_CODE = /^Error Code (\S+?):\s*([\s\S]*)$/;

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Parses the vendor envelope; never throws. Runs once per failed call, never per event. */
export function describeProviderError(raw: string): ProviderFailure {
  const json = STATUS_JSON.exec(raw);
  if (json) {
    let body: unknown;
    try {
      body = JSON.parse(json[2] as string);
    } catch {
      body = undefined;
    }
    if (body !== undefined) {
      const inner = field(body, "error");
      const code = text(field(inner, "type")) ?? text(field(inner, "code")) ?? text(field(body, "code"));
      const message = text(field(inner, "message")) ?? text(field(body, "message")) ?? raw;
      return { raw, source: "protocol", status: Number(json[1]), ...(code ? { code } : {}), message };
    }
  }
  const coded = ERROR_CODE.exec(raw);
  if (coded) return { raw, source: "protocol", code: coded[1] as string, message: coded[2] as string };
  const status = STATUS_TEXT.exec(raw);
  if (status) return { raw, source: "protocol", status: Number(status[1]), message: status[2] as string };
  return { raw, source: "protocol", message: raw };
}

// Linear alternations without nested quantifiers (MC-4: no catastrophic backtracking).
const TIMEOUT_TEXT = /timed out|timeout/i;
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  "ETIMEDOUT",
  "timeout",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const NETWORK_TEXT =
  /econnreset|econnrefused|enotfound|eai_again|socket hang up|connection error|fetch failed|terminated|stream ended|network/i;
const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "UND_ERR_SOCKET",
  "network_error",
]);

/** What kind of failure, for the recovery rules. Overflow is decided by the replay gate's own test. */
export function failureKindOf(
  failure: TurnErrorDescription,
  isOverflow: (e: TurnErrorDescription) => boolean,
): FailureKind {
  if (isOverflow(failure)) return "context-overflow";
  const message = failure.message ?? "";
  if (
    failure.status === 408 ||
    (failure.code !== undefined && TIMEOUT_CODES.has(failure.code)) ||
    TIMEOUT_TEXT.test(message)
  )
    return "timeout";
  if ((failure.code !== undefined && NETWORK_CODES.has(failure.code)) || NETWORK_TEXT.test(message))
    return "network";
  return "other";
}
