// The feed bus across processes and machines. The store NOTIFYs on its feed channel inside every
// transaction that appends to a company's feed (PostgreSQL delivers it on commit), so a commit by
// any worker, API instance or CLI is heard by every process LISTENing here. The signal names the
// company only: subscribers read the rows from the store after their own cursor (SSE Last-Event-ID),
// so the stored event is the payload and a lost signal costs latency, never an event.
import { feedChannel, type PgNotifications } from "@cadre/store";
import { type FeedBus, InProcessFeedBus } from "../feed/bus.js";

export class PostgresFeedBus implements FeedBus {
  private readonly local = new InProcessFeedBus();

  private constructor() {}

  /** LISTENs (through `notifications`) on the feed channel of the store kept in `schema`. */
  static async open(notifications: PgNotifications, schema: string): Promise<PostgresFeedBus> {
    const bus = new PostgresFeedBus();
    await notifications.listen(feedChannel(schema), (companyId) => bus.local.publish(companyId));
    // Signals may have been missed while the connection was down: every subscriber re-reads once.
    notifications.onReconnect(() => {
      for (const companyId of bus.local.companies()) bus.local.publish(companyId);
    });
    await notifications.start();
    return bus;
  }

  /** This process's own commits reach its subscribers at once; the NOTIFY echo that follows is harmless. */
  publish(companyId: string): void {
    this.local.publish(companyId);
  }

  subscribe(companyId: string, onChange: () => void): () => void {
    const unsubscribe = this.local.subscribe(companyId, onChange);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      unsubscribe();
    };
  }
}
