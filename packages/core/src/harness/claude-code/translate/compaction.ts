// Claude Code's compaction lines → compaction_start / compaction_end (MC-8: the host consumes them
// for usage, UI and the digest). What the CLI writes (SDKStatusMessage, SDKCompactBoundaryMessage):
//   {"type":"system","subtype":"status","status":"compacting"}            a compaction began
//   {"type":"system","subtype":"compact_boundary","compact_metadata":{…}}  it succeeded (pre/post tokens)
//   {"type":"system","subtype":"status","status":null,"compact_result":"success"|"failed","compact_error"?:…}
// The boundary and the success status come in either order: 2.1.332 writes compacting → success →
// system/init → compact_boundary (seen on the real binary), so a success keeps the
// compaction open for the boundary that carries its token counts, until any other line arrives.
// Older builds write the boundary alone, so a boundary opens and closes a compaction by itself.
// Every compaction that starts ends exactly once: a stream that stops mid-compaction closes it failed
// (one whose success was already reported closes it done).
import type { AgentEvent } from "../../../types.js";
import type { ClaudeCodeLine } from "./wire.js";

export interface CompactionState {
  /** A compaction_start was emitted and its compaction_end was not. */
  compacting: boolean;
  /** The open compaction was reported successful; its boundary (with token counts) may still follow. */
  succeeded?: boolean;
}

function start(s: CompactionState, reason: "threshold" | "manual", out: AgentEvent[]): void {
  if (s.compacting) return;
  s.compacting = true;
  out.push({ type: "compaction_start", reason });
}

function end(s: CompactionState, event: AgentEvent, out: AgentEvent[]): void {
  s.compacting = false;
  s.succeeded = false;
  out.push(event);
}

/** A success already reported, with no boundary before the next line: it ends without token counts. */
export function settleReportedSuccess(s: CompactionState, out: AgentEvent[]): void {
  if (s.compacting && s.succeeded) end(s, { type: "compaction_end", ok: true }, out);
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
    // The boundary may have ended it already; otherwise it is done, and its boundary may follow.
    if (s.compacting) s.succeeded = true;
    return true;
  }
  if (line.status === null && s.compacting && !s.succeeded) {
    // The CLI clears the status without a result when the compaction was aborted or skipped.
    end(s, { type: "compaction_end", ok: false, error: "compaction ended without a result" }, out);
    return true;
  }
  return false;
}

/** The stream stopped (or a result line came) while a compaction was open: it failed. */
export function closeOpenCompaction(s: CompactionState, why: string, out: AgentEvent[]): void {
  if (s.compacting && s.succeeded) end(s, { type: "compaction_end", ok: true }, out);
  else if (s.compacting) end(s, { type: "compaction_end", ok: false, error: why }, out);
}
