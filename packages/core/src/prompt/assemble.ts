// System-prompt assembly (MC-3). Segments come in one fixed order; each is hashed so a caller can
// prove, turn after turn, that the stable prefix is byte-identical. Volatile content (timestamps,
// counters, random ids) belongs only in the per-call user prompt and is refused in stable segments.
import { createHash } from "node:crypto";
import { InternalError } from "../errors.js";

export const SEGMENT_ORDER = ["harness-preset", "product-append", "memory-rules", "contacts", "host-runtime", "memory-index"] as const;
export type SegmentId = (typeof SEGMENT_ORDER)[number];

export interface PromptSegment {
  id: SegmentId;
  text: string;
  /** First 16 hex digits of the SHA-256 of the text. */
  hash: string;
}

export interface AssembledPrompt {
  systemPrompt: string;
  segments: PromptSegment[];
}

export function hashText(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

// ISO timestamps, clock times, and long hex/uuid-like runs: the usual ways volatility leaks in.
const VOLATILE_PATTERNS: Array<[RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, "a timestamp"],
  [/\b\d{1,2}:\d{2}:\d{2}\b/, "a clock time"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i, "a UUID"],
  [/\b1[5-9]\d{11}\b/, "an epoch-milliseconds value"],
];

/** Returns what volatile content a stable segment contains, or undefined. */
export function findVolatileContent(text: string): string | undefined {
  for (const [pattern, what] of VOLATILE_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return `${what} ("${match[0]}")`;
  }
  return undefined;
}

/**
 * Joins the given segments in SEGMENT_ORDER. Segments may be absent (e.g. contacts for a remote
 * session) but never out of order or duplicated; volatile content fails closed.
 */
export function assembleSystemPrompt(segments: ReadonlyArray<{ id: SegmentId; text: string }>): AssembledPrompt {
  let last = -1;
  const out: PromptSegment[] = [];
  for (const segment of segments) {
    const position = SEGMENT_ORDER.indexOf(segment.id);
    if (position <= last) throw new InternalError(`prompt segment "${segment.id}" is out of order or repeated; the order is ${SEGMENT_ORDER.join(" → ")}`);
    last = position;
    const volatile = findVolatileContent(segment.text);
    if (volatile) throw new InternalError(`prompt segment "${segment.id}" contains ${volatile}; volatile content belongs in the per-call user prompt only (MC-3)`);
    out.push({ id: segment.id, text: segment.text, hash: hashText(segment.text) });
  }
  return { systemPrompt: out.map((s) => s.text.trimEnd()).join("\n\n"), segments: out };
}
