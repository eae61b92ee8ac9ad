// Codex compacts natively (MC-8); the host only consumes what the exec stream says about it. Codex
// 0.163's `exec --experimental-json` drops its ContextCompaction items (event_processor_with_jsonl_output.rs
// maps only the item types of exec_events.rs), so the stream says it in words, and only these:
//  - a failed compaction: an `error` event (or error item) "Error running remote compact task: …" /
//    "Error running local compact task: …" (codex-rs core compact_remote.rs, compact.rs);
//  - a finished local compaction: the warning Codex writes after it, an error item "Heads up: Long
//    threads and multiple compactions …".
// A remote compaction that succeeds leaves no trace in the exec stream; its usage still counts.
import type { AgentEvent } from "../../../types.js";

const FAILED = /^Error running (remote|local) compact task\b/;
const COMPACTED_WARNING = /^Heads up: Long (threads|conversations) and multiple compactions/;

export function isCompactionFailure(message: string): boolean {
  return FAILED.test(message);
}

export function isCompactionWarning(message: string): boolean {
  return COMPACTED_WARNING.test(message);
}

/** The compaction events one exec message stands for; none when it is not about compaction. */
export function compactionEventsOf(message: string): AgentEvent[] {
  if (isCompactionFailure(message))
    return [
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: false, error: message },
    ];
  if (isCompactionWarning(message))
    return [
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true },
    ];
  return [];
}
