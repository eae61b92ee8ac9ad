// The feed's signal, given by the write path itself: appendRunEvents and insertActivities report
// the companies whose feed they appended to. On the store, where each write commits on its own,
// the listeners hear it at once; inside a transaction the report is held and told once the
// transaction commits (a retried attempt starts afresh, a rolled back one tells nothing).
import type { FeedWriteListener } from "./types.js";

/** Where a write that appended to feeds reports them. */
export interface FeedWrites {
  written(companyIds: Iterable<string>): void;
}

/** The store's listeners (Store.onFeedWrite). */
export class FeedSignal implements FeedWrites {
  private readonly listeners = new Set<FeedWriteListener>();

  on(listener: FeedWriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  written(companyIds: Iterable<string>): void {
    const ids = new Set(companyIds);
    if (ids.size === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(ids);
      } catch {
        // A listener's failure is its own: the write is committed, the other listeners still hear.
      }
    }
  }
}

/** One transaction attempt's feed writes, told on (to the signal, or an outer transaction's) when it commits. */
export class PendingFeedWrites implements FeedWrites {
  private readonly ids = new Set<string>();

  written(companyIds: Iterable<string>): void {
    for (const id of companyIds) this.ids.add(id);
  }

  committed(to: FeedWrites): void {
    if (this.ids.size > 0) to.written(this.ids);
  }
}
