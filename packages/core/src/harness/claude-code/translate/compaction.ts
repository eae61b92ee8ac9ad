// Claude Code's compaction lines → compaction_start / compaction_end (MC-8: the host consumes them
// for usage, UI and the digest). What the CLI writes (SDKStatusMessage, SDKCompactBoundaryMessage):
//   {"type":"system","subtype":"status","status":"compacting"}            a compaction began
//   {"type":"system","subtype":"compact_boundary","compact_metadata":{…}}  it succeeded (pre/post tokens)
//   {"type":"system","subtype":"status","status":null,"compact_result":"success"|"failed","compact_error"?:…}
// Older builds write the boundary alone, so a boundary opens and closes a compaction by itself.
// Every compaction that starts ends exactly once: a stream that stops mid-compaction closes it failed.
import type { AgentEvent } from "../../../types.js";
import type { ClaudeCodeLine } from "./wire.js";

export interface CompactionState {
  /** A compaction_start was emitted and its compaction_end was not. */
  compacting: boolean;
}

function start(s: CompactionState, reason: "threshold" | "manual", out: AgentEvent[]): void {
  if (s.compacting) return;
  s.compacting = true;
  out.push({ type: "compaction_start", reason });
}

function end(s: CompactionState, event: AgentEvent, out: AgentEvent[]): void {
  s.compacting = false;
  out.push(event);
}

export function compactBoundary(s: CompactionState, line: ClaudeCodeLine, out: AgentEvent[]): void {
  const meta = line.compact_metadata;
  start(s, meta?.trigger === "manual" ? "manual" : "threshold", out);
  const done: AgentEvent = { type: "compaction_end", ok: true };
  if (typeof meta?.pre_tokens === "number") done.tokensBefore = meta.pre_tokens;
  if (typeof meta?.post_tokens === "number") done.tokensAfter = meta.post_tokens;
  end(s, done, out);
}

/** A status line; false when it says nothing about compaction (then it is carried as unknown). */
export function compactionStatus(s: CompactionState, line: ClaudeCodeLine, out: AgentEvent[]): boolean {
  if (line.status === "compacting") {
    // The trigger is only known at the boundary; the harness names its own /compact (MC-8).
    start(s, "threshold", out);
    return true;
  }
  if (line.compact_result === "failed") {
    start(s, "threshold", out);
    end(s, { type: "compaction_end", ok: false, error: line.compact_error || "compaction failed" }, out);
    return true;
  }
  if (line.compact_result === "success") {
    // Normally the boundary already ended it; a success without a boundary still ends it once.
    if (s.compacting) end(s, { type: "compaction_end", ok: true }, out);
    return true;
  }
  if (line.status === null && s.compacting) {
    // The CLI clears the status without a result when the compaction was aborted or skipped.
    end(s, { type: "compaction_end", ok: false, error: "compaction ended without a result" }, out);
    return true;
  }
  return false;
}

/** The stream stopped (or a result line came) while a compaction was open: it failed. */
export function closeOpenCompaction(s: CompactionState, why: string, out: AgentEvent[]): void {
  if (s.compacting) end(s, { type: "compaction_end", ok: false, error: why }, out);
}
