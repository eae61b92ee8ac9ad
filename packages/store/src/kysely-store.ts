// The Store: StoreQueries on the database itself, plus transactions, counts and shutdown.
import type { Kysely } from "kysely";
import { type DialectAdapter, transact } from "./dialect.js";
import { toStoreError } from "./errors.js";
import { audited } from "./audited.js";
import { KyselyQueries } from "./kysely-queries.js";
import { TABLES, type Database } from "./schema.js";
import { inTransactionScope } from "./transaction-scope.js";
import { attachDirect, connectionRunner, transactionRunner } from "./direct.js";
import { FeedSignal, PendingFeedWrites } from "./feed-signal.js";
import type { FeedWriteListener, Store, StoreQueries, TransactionOptions } from "./types.js";

export class KyselyStore extends KyselyQueries implements Store {
  readonly dialect: Store["dialect"];
  private readonly signal: FeedSignal;

  constructor(db: Kysely<Database>, adapter: DialectAdapter, signal = new FeedSignal()) {
    // The store's own writes commit one by one: its feed writes are told at once.
    super(db, adapter, signal);
    this.signal = signal;
    this.dialect = adapter.name;
    // Every audited write, on the store or in a transaction, records its audit row with it.
    return audited(this);
  }

  /**
   * Inside `fn`, use only `tx`: on SQLite the store has one connection, which the transaction
   * holds until it ends, so a call on the store itself would wait for ever.
   */
  async transaction<T>(fn: (tx: StoreQueries) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    let fnFailed = false;
    let pending = new PendingFeedWrites();
    try {
      const result = await transact(
        this.db,
        this.adapter,
        async (trx) => {
          fnFailed = false; // each attempt of a retried transaction starts afresh
          pending = new PendingFeedWrites();
          // The transaction holds the connection while its body runs: its statements may run at once.
          const body = { open: true };
          const connection = connectionRunner(this.db);
          if (connection) attachDirect(trx, transactionRunner(connection, body));
          try {
            // In the transaction scope: probes and (in tests) sync fs calls refuse to run here.
            return await inTransactionScope(() => fn(audited(new KyselyQueries(trx, this.adapter, pending))));
          } catch (error) {
            fnFailed = true;
            throw error;
          } finally {
            body.open = false;
          }
        },
        options.isolation ?? "serializable",
      );
      pending.committed(this.signal);
      return result;
    } catch (error) {
      // The caller's own errors pass through as thrown; only BEGIN/COMMIT failures are ours.
      if (fnFailed) throw error;
      throw toStoreError(error, "transaction", this.adapter);
    }
  }

  onFeedWrite(listener: FeedWriteListener): () => void {
    return this.signal.on(listener);
  }

  counts(): Promise<Record<string, number>> {
    return this.guard("row counts", async () => {
      const counts: Record<string, number> = {};
      for (const table of TABLES) {
        const row = await this.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow();
        // PostgreSQL returns count(*) as a bigint string.
        counts[table] = Number(row.n);
      }
      return counts;
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
