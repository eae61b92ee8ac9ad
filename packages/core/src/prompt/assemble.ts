// System-prompt assembly (MC-3). Segments come in one fixed order; each is hashed, and its place in
// the assembled text is recorded, so every model call of a session can prove that the stable prefix
// is byte-identical, segment by segment (see prefix-guard.ts). Volatile content (timestamps,
// counters, random ids) belongs only in the per-call user prompt and is refused here.
import { createHash } from "node:crypto";
import { InternalError } from "../errors.js";
import { findVolatileContent } from "./volatile.js";

export { findVolatileContent } from "./volatile.js";

export const SEGMENT_ORDER = [
  "harness-preset",
  "product-append",
  "memory-rules",
  "contacts",
  "host-runtime",
  "memory-index",
] as const;
export type SegmentId = (typeof SEGMENT_ORDER)[number];

export interface SegmentInput {
  id: SegmentId;
  text: string;
  /**
   * Values copied from stored records (company goal, agent names, a decision note). They change only
   * between sessions, so the pattern check skips them (the per-call prefix guard still proves them
   * stable); a goal that mentions "2026-03-01 09:00" must not fail a wake.
   */
  recordValues?: readonly string[];
}

export interface PromptSegment {
  id: SegmentId;
  /** The segment exactly as it appears in the system prompt (trailing whitespace trimmed). */
  text: string;
  /** First 16 hex digits of the SHA-256 of `text`. */
  hash: string;
  /** UTF-16 offsets of `text` inside the assembled system prompt: `systemPrompt.slice(start, end) === text`. */
  start: number;
  end: number;
}

export interface AssembledPrompt {
  systemPrompt: string;
  segments: PromptSegment[];
}

export const SEGMENT_SEPARATOR = "\n\n";

export function hashText(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/**
 * Joins the given segments in SEGMENT_ORDER. Segments may be absent (e.g. contacts for a remote
 * session) but never out of order or duplicated; volatile content fails closed.
 */
export function assembleSystemPrompt(segments: ReadonlyArray<SegmentInput>): AssembledPrompt {
  let last = -1;
  let offset = 0;
  const out: PromptSegment[] = [];
  for (const segment of segments) {
    const position = SEGMENT_ORDER.indexOf(segment.id);
    if (position <= last)
      throw new InternalError(
        `prompt segment "${segment.id}" is out of order or repeated; the order is ${SEGMENT_ORDER.join(" → ")}`,
      );
    last = position;
    const volatile = findVolatileContent(segment.text, segment.recordValues);
    if (volatile)
      throw new InternalError(
        `prompt segment "${segment.id}" contains ${volatile}; volatile content belongs in the per-call user prompt only (MC-3)`,
      );
    if (out.length > 0) offset += SEGMENT_SEPARATOR.length;
    const text = segment.text.trimEnd();
    out.push({ id: segment.id, text, hash: hashText(text), start: offset, end: offset + text.length });
    offset += text.length;
  }
  return { systemPrompt: out.map((s) => s.text).join(SEGMENT_SEPARATOR), segments: out };
}
