// Follows one company's feed from a cursor: replay from the store, then live, as one sequence with
// no gap and no repeat. Live rows are read from the store too (after the bus signals), so a
// reconnect resuming from any delivered id continues exactly where it left off. Rows come in pages
// (what one store read returned), so a writer can send a page as one chunk. Never throws: a failure
// ends the sequence with one `failure` item.
import type { FeedRow, StoreQueries } from "@cadre/store";
import type { FeedBus } from "./bus.js";

export type FeedFailure = { kind: "failure"; message: string };
/** One row, or the failure that ends the sequence. */
export type FeedItem = FeedRow | FeedFailure;
/** A non-empty page of rows in id order (one store read), or the failure that ends the sequence. */
export type FeedPage = { kind: "rows"; rows: readonly FeedRow[] } | FeedFailure;

export interface FollowOptions {
  reader: FeedReader;
  bus: FeedBus;
  companyId: string;
  afterId: number | undefined;
  signal: AbortSignal;
  /** Rows per store read. */
  pageSize?: number;
  /** Re-reads the store this often without a signal, for writers in other processes (e.g. the CLI). */
  pollMs?: number;
}

/**
 * Reads feed pages, sharing one in-flight query among subscribers asking for the same page: a
 * hundred subscribers at the same cursor cost one query, not a hundred.
 */
export class FeedReader {
  private readonly inFlight = new Map<string, Promise<FeedRow[]>>();

  constructor(private readonly store: Pick<StoreQueries, "listFeed">) {}

  read(companyId: string, afterId: number | undefined, limit: number): Promise<FeedRow[]> {
    const key = `${companyId}\u0000${afterId ?? ""}\u0000${limit}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.store.listFeed(companyId, afterId, limit).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}

/** Row by row. */
export async function* followFeed(options: FollowOptions): AsyncGenerator<FeedItem> {
  for await (const page of followFeedPages(options)) {
    if (page.kind === "failure") {
      yield page;
      return;
    }
    for (const row of page.rows) {
      if (options.signal.aborted) return;
      yield row;
    }
  }
}

/** Page by page: what a writer sending one chunk per read wants (the SSE route). */
export async function* followFeedPages(options: FollowOptions): AsyncGenerator<FeedPage> {
  const { reader, bus, companyId, signal } = options;
  const pageSize = options.pageSize ?? 500;
  const pollMs = options.pollMs ?? 1000;
  let cursor = options.afterId;
  let changed = true;
  let wake: (() => void) | undefined;
  // Subscribed before the first read: a commit landing during the replay is not missed.
  const unsubscribe = bus.subscribe(companyId, () => {
    changed = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  try {
    while (!signal.aborted) {
      changed = false;
      let rows: FeedRow[];
      try {
        rows = await reader.read(companyId, cursor, pageSize);
      } catch (error) {
        yield { kind: "failure", message: error instanceof Error ? error.message : String(error) };
        return;
      }
      if (rows.length > 0) {
        if (signal.aborted) return;
        yield { kind: "rows", rows };
        cursor = (rows.at(-1) as FeedRow).id;
      }
      if (rows.length === pageSize || changed) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (changed || signal.aborted) wake();
      });
      wake = undefined;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}
