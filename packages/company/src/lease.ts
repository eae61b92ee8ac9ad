// A process's hold on one wake — a queue worker's, or an in-process run's (wake.ts): its lease in
// the store, renewed by a heartbeat, and a view of the store that writes only under the lease. Every
// write is a transaction that first renews the lease, so a process cut off past its lease (paused,
// partitioned) cannot write to a run that recovery has already ended: one terminal event, whoever
// wrote it. Recovery (recovery/recover.ts) takes a wake whose lease ran out, or whose process is
// known to be gone.
import type { NewRun, RunRow, Store, StoreQueries, TransactionOptions } from "@cadre/store";

export class LeaseLostError extends Error {
  constructor(wakeId: string) {
    super(`the lease on wake ${wakeId} was lost: another process has taken it over`);
    this.name = "LeaseLostError";
  }
}

/** Store methods that write; through the lease's view each runs under the lease. */
const WRITES = /^(insert|append|finish|set|update|decide|revoke|put)[A-Z]/;

export class WakeLease {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private lastRenewed = Date.now();
  /** The run this wake started, once insertRun went through the lease. */
  runId: string | undefined;

  constructor(
    private readonly store: Store,
    readonly wakeId: string,
    readonly workerId: string,
    private readonly leaseMs: number,
  ) {}

  get lost(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborted when the lease is lost: the run is then cancelled. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  leaseUntil(): string {
    return new Date(Date.now() + this.leaseMs).toISOString();
  }

  /** Renews the lease every third of its length until stop(). */
  startHeartbeat(): void {
    this.timer = setInterval(() => void this.beat(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    if (this.lost) return;
    try {
      if (await this.store.renewWake(this.wakeId, this.workerId, this.leaseUntil()))
        this.lastRenewed = Date.now();
      else this.controller.abort(new LeaseLostError(this.wakeId));
    } catch {
      // The database is unreachable: past the lease length without a renewal, another worker may
      // already have taken the wake, so this one stops as if it had.
      if (Date.now() - this.lastRenewed > this.leaseMs)
        this.controller.abort(new LeaseLostError(this.wakeId));
    }
  }

  /**
   * Runs `fn` in one transaction that first renews the lease; throws LeaseLostError when it is
   * gone. The renewal locks the wake's row, so recovery (expireWake) waits for this transaction and
   * then finds the lease renewed, or took the wake first and this transaction writes nothing: read
   * committed is enough for that, and plain appends use it (they then never conflict).
   */
  fenced<T>(fn: (tx: StoreQueries) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.store
      .transaction(async (tx) => {
        if (!(await tx.renewWake(this.wakeId, this.workerId, this.leaseUntil())))
          throw new LeaseLostError(this.wakeId);
        return fn(tx);
      }, options)
      .then(
        (value) => {
          this.lastRenewed = Date.now();
          return value;
        },
        (error: unknown) => {
          if (error instanceof LeaseLostError) this.controller.abort(error);
          throw error;
        },
      );
  }

  /**
   * The store as the wake's run sees it: reads go straight through; writes run under the lease;
   * the run row is written with the wake's record of it, so a wake never starts two runs unseen.
   */
  view(): Store {
    const appends = { isolation: "read committed" } as const;
    const record = async (tx: StoreQueries, run: NewRun): Promise<RunRow> => {
      const row = await tx.insertRun(run);
      if (!(await tx.setWakeRun(this.wakeId, this.workerId, run.id))) throw new LeaseLostError(this.wakeId);
      this.runId = run.id;
      return row;
    };
    const insertRun = (run: NewRun): Promise<RunRow> => this.fenced((tx) => record(tx, run), appends);
    // The run's own check-then-write transactions (a hire, an approval, the run with its session
    // lock) keep their isolation; a run row written inside one is recorded with the wake too.
    const transaction: Store["transaction"] = (fn, options) =>
      this.fenced(
        (tx) =>
          fn(
            new Proxy(tx, {
              get: (target, prop) =>
                prop === "insertRun"
                  ? (run: NewRun) => record(target, run)
                  : (Reflect.get(target, prop, target) as unknown),
            }),
          ),
        options,
      );
    return new Proxy(this.store, {
      get: (target, prop) => {
        if (prop === "insertRun") return insertRun;
        if (prop === "transaction") return transaction;
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (typeof prop === "string" && WRITES.test(prop)) {
          return (...args: unknown[]) =>
            this.fenced(
              (tx) =>
                (tx as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]!(...args),
              appends,
            );
        }
        return (value as (...args: unknown[]) => unknown).bind(target);
      },
    });
  }
}
