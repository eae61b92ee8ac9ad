// Narrowing a company's event stream for one reader: only one run's agent events (a run view
// replays its run without the rest of the company's history), or only one kind (a company view
// follows domain events only). Filtering drops rows before they are written and leaves the ids
// alone, so `Last-Event-ID` still resumes exactly: the rows skipped before it would be skipped again.
import type { FeedRow } from "@cadre/store";

export const FEED_KINDS = ["agent_event", "domain_event"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
/**
 * What `?kind=` narrows to: one kind, or `lifecycle` — the domain events plus each run's first and
 * terminal agent event, so a company view knows when a run starts and ends without its deltas.
 */
export const FEED_FILTERS = [...FEED_KINDS, "lifecycle"] as const;
export type FeedFilterKind = (typeof FEED_FILTERS)[number];

export interface FeedFilter {
  /** Only rows of this run: its agent events and the domain events it caused. */
  runId?: string;
  kind?: FeedFilterKind;
}

/** The predicate of a filter, or undefined when the filter keeps everything. */
export function feedPredicate(filter: FeedFilter): ((row: FeedRow) => boolean) | undefined {
  const { runId, kind } = filter;
  if (runId === undefined && kind === undefined) return undefined;
  return (row) => {
    if (kind === "lifecycle") {
      if (row.kind === "agent_event" && row.event.seq !== 0 && row.event.type !== "terminal") return false;
    } else if (kind !== undefined && row.kind !== kind) return false;
    if (runId === undefined) return true;
    return (row.kind === "agent_event" ? row.event.runId : row.activity.runId) === runId;
  };
}
