// The feed bus: "company X's feed has new rows". It carries no rows, only the signal — subscribers
// read the rows from the store after their own cursor. That keeps the store the single source of
// truth (a missed signal costs latency, never an event) and makes the bus replaceable: a PostgreSQL
// bus is LISTEN cadre_feed / NOTIFY cadre_feed, '<companyId>' issued inside the writing transaction
// (PostgreSQL delivers it on commit), shared by every server process on that database.

export interface FeedBus {
  /** Called after a commit that appended to this company's feed. */
  publish(companyId: string): void;
  /** Returns the unsubscribe function. */
  subscribe(companyId: string, onChange: () => void): () => void;
}

/** The bus of one process. */
export class InProcessFeedBus implements FeedBus {
  private readonly listeners = new Map<string, Set<() => void>>();

  publish(companyId: string): void {
    for (const listener of this.listeners.get(companyId) ?? []) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the writer and the other listeners carry on.
      }
    }
  }

  subscribe(companyId: string, onChange: () => void): () => void {
    let set = this.listeners.get(companyId);
    if (!set) this.listeners.set(companyId, (set = new Set()));
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0) this.listeners.delete(companyId);
    };
  }

  /** Companies with at least one subscriber. */
  companies(): string[] {
    return [...this.listeners.keys()];
  }

  /** Subscriber count, for tests and the benchmark. */
  size(companyId: string): number {
    return this.listeners.get(companyId)?.size ?? 0;
  }
}
