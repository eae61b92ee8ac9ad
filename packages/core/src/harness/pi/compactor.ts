// Pi's native compaction step (MC-8). pi-agent-core has no compaction of its own, so the Pi
// session performs it where Pi would — at contextWindow − reserveTokens and on a provider overflow —
// and the host side only consumes its compaction_start/compaction_end events. The summary is a
// code-built digest of the compacted messages (the bounded handoff format, no tool_result bodies),
// never a model call. A compactor reports a failure the way its provider would: the vendor's text.

import { buildHandoff, type TranscriptItem } from "../../context/index.js";

export interface CompactionRequest {
  reason: "threshold" | "overflow";
  /** What is being compacted, as transcript items (tool results carry no body). */
  items: readonly TranscriptItem[];
  signal?: AbortSignal;
}

/** `summary` may come back blank: that is a failed compaction, classified as such (MC-9). */
export type CompactionReply = { summary: string } | { error: string };

export type Compactor = (request: CompactionRequest) => Promise<CompactionReply>;

/** Handoff bounds shared by compaction summaries and rollover handoffs. */
export const PI_HANDOFF_OPTIONS = Object.freeze({ lineBytes: 1_200 });

/** The default: a deterministic digest of the compacted part (no model call). */
export const digestCompactor: Compactor = async (request) => ({
  summary: buildHandoff(request.items, PI_HANDOFF_OPTIONS),
});
