// Wakes as jobs on pg-boss (a queue kept in PostgreSQL): enqueued by an API instance (or a test, a
// benchmark), taken by workers on any machine (worker.ts). What pg-boss gives: durable at-least-once
// delivery, SKIP LOCKED fetching, retry with exponential backoff, and coalescing: the queue's
// `short` policy keeps at most one waiting wake per agent, so wakes sent while one waits join it.
import { randomUUID } from "node:crypto";
import type { PromptProfile, WakeTrigger } from "@cadre/model";
import { sqlState } from "@cadre/store";
import type PgBoss from "pg-boss";

export const DEFAULT_WAKE_QUEUE = "cadre-wakes";

/** A job's data. The wake id is the run's idempotency key (see the store's claimWake). */
export interface WakeJob {
  wakeId: string;
  agentId: string;
  trigger?: WakeTrigger;
  seed?: number | string;
  /** The prompt profile asked for (C4-7); default the company's. */
  profile?: PromptProfile;
  /** A wake for due work (OP-1): it starts only if the agent has due work when a worker takes it. */
  due?: boolean;
}

export type WakeJobRecord = PgBoss.JobWithMetadata<WakeJob>;

export interface WakeQueueOptions {
  url: string;
  /** pg-boss's own schema; default "pgboss". */
  schema?: string;
  /** Queue name; default "cadre-wakes". */
  queue?: string;
  /** Retries of a retryable failure (worker.ts decides which are); default 3. */
  retryLimit?: number;
  /** First retry delay; it doubles (with jitter) at each retry. Default 2 s. */
  retryDelaySeconds?: number;
  /**
   * pg-boss fails (and retries) a job still active after this long; default 15 min. Only a
   * backstop: a crashed worker's wake is recovered through its lease (worker.ts) within the lease
   * timeout, and a redelivered wake never runs twice (the store's claimWake).
   */
  expireInSeconds?: number;
  /** pg-boss maintenance (expiry, archiving): on for workers, may be off for enqueue-only processes. */
  supervise?: boolean;
  poolSize?: number;
  log?: (line: string) => void;
}

export interface Enqueued {
  /** The wake that will run: the one sent, or the waiting one it joined; follow it with getWake. */
  wakeId: string;
  /** False: the agent already had a waiting wake, which this one joined (coalesced). */
  queued: boolean;
}

/** The NOTIFY channel on which enqueuers tell idle workers to fetch now rather than at their next poll. */
export function wakeChannel(queue: string): string {
  return `cadre_wakes.${queue}`.slice(0, 63);
}

export class WakeQueue {
  private constructor(
    readonly boss: PgBoss,
    readonly name: string,
    private readonly sendOptions: PgBoss.SendOptions,
    private readonly schema: string,
  ) {}

  static async open(options: WakeQueueOptions): Promise<WakeQueue> {
    const schema = options.schema ?? "pgboss";
    // Loaded here, on the first queue: a `cadre serve` on SQLite never loads pg-boss or pg.
    const { default: Boss } = await import("pg-boss");
    const boss = new Boss({
      connectionString: options.url,
      schema,
      max: options.poolSize ?? 4,
      application_name: "cadre-queue",
      supervise: options.supervise ?? true,
      schedule: false,
      maintenanceIntervalSeconds: 30,
    });
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    boss.on("error", (error) => log(`cadre queue: ${error.message}`));
    await boss.start();
    const name = options.queue ?? DEFAULT_WAKE_QUEUE;
    const retry = {
      retryLimit: options.retryLimit ?? 3,
      retryDelay: options.retryDelaySeconds ?? 2,
      retryBackoff: true,
    };
    const expireInSeconds = options.expireInSeconds ?? 900;
    // Idempotent: every process creates it; the first one does.
    await createQueueOnce(boss, name, { name, policy: "short", ...retry, expireInSeconds });
    return new WakeQueue(boss, name, { ...retry, expireInSeconds }, schema);
  }

  /** Queues a wake of `agentId`, or joins the one already waiting for it. */
  async enqueue(wake: Omit<WakeJob, "wakeId"> & { wakeId?: string }): Promise<Enqueued> {
    const job: WakeJob = { ...wake, wakeId: wake.wakeId ?? `wake_${randomUUID().replace(/-/g, "")}` };
    // The waiting wake can be taken by a worker between the refused send and the look-up: then
    // nothing waits any more and the next send goes through.
    for (let attempt = 0; ; attempt++) {
      const id = await this.boss.send(this.name, job, { ...this.sendOptions, singletonKey: wake.agentId });
      if (id !== null) {
        await this.boss.getDb().executeSql("select pg_notify($1, '')", [wakeChannel(this.name)]);
        return { wakeId: job.wakeId, queued: true };
      }
      const waiting = await this.waitingWake(wake.agentId);
      if (waiting !== undefined || attempt >= 3) return { wakeId: waiting ?? job.wakeId, queued: false };
    }
  }

  /**
   * Brings back a wake recovery took before its run started (its worker died): a job for the same
   * wake id under a key of its own, outside the agent's coalescing key, so that it is never joined
   * to another waiting wake (which would leave this one `retrying` for good). Only the recoverer
   * that took the wake sends it.
   */
  async requeue(wake: { wakeId: string; agentId: string }): Promise<void> {
    await this.boss.send(
      this.name,
      { wakeId: wake.wakeId, agentId: wake.agentId },
      { ...this.sendOptions, singletonKey: `recovered:${wake.wakeId}` },
    );
    await this.boss.getDb().executeSql("select pg_notify($1, '')", [wakeChannel(this.name)]);
  }

  /** The wake id of the job waiting (not yet taken) for `agentId`, which a new wake joins. */
  private async waitingWake(agentId: string): Promise<string | undefined> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select data->>'wakeId' as "wakeId" from ${this.schema}.job where name = $1 and singleton_key = $2 and state = 'created' limit 1`,
        [this.name, agentId],
      );
    return (rows[0] as { wakeId?: string } | undefined)?.wakeId ?? undefined;
  }

  /**
   * Cancels the wakes waiting (created, retry: not yet taken) for these agents — a hard budget stop
   *. Returns how many were cancelled.
   */
  async cancelWaiting(agentIds: readonly string[]): Promise<number> {
    if (agentIds.length === 0) return 0;
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select id from ${this.schema}.job where name = $1 and state in ('created', 'retry') and data->>'agentId' = any($2::text[])`,
        [this.name, [...agentIds]],
      );
    const ids = (rows as Array<{ id: string }>).map((r) => r.id);
    if (ids.length > 0) await this.boss.cancel(this.name, ids);
    return ids.length;
  }

  /** The next due wake, if any (the job becomes active: this worker's until completed or failed). */
  async fetch(): Promise<WakeJobRecord | undefined> {
    const [job] = await this.boss.fetch<WakeJob>(this.name, { includeMetadata: true, batchSize: 1 });
    return job;
  }

  complete(job: WakeJobRecord, output: object): Promise<void> {
    return this.boss.complete(this.name, job.id, output);
  }

  /** A retryable failure: pg-boss retries the job after its backoff while retries remain. */
  fail(job: WakeJobRecord, output: object): Promise<void> {
    return this.boss.fail(this.name, job.id, output);
  }

  /**
   * The wake's agent is busy with another wake: the same wake goes back to the queue, due in
   * `seconds`, outside the coalescing key so that it is never dropped, and this job completes.
   */
  async defer(job: WakeJobRecord, seconds: number): Promise<void> {
    await this.boss.send(this.name, job.data, { ...this.sendOptions, startAfter: seconds });
    await this.complete(job, { deferred: true });
  }

  /** Jobs waiting or running (created, retry, active). */
  async pending(): Promise<number> {
    const queue = await this.boss.getQueue(this.name);
    return queue ? await this.boss.getQueueSize(this.name, { before: "completed" }) : 0;
  }

  stop(): Promise<void> {
    return this.boss.stop({ graceful: false, wait: true });
  }
}

const DEADLOCK = "40P01";

/**
 * pg-boss's create_queue attaches a partition to its job table without a lock of its own, so
 * instances starting at once on an empty database can deadlock there; PostgreSQL then aborts one
 * of them. That one tries again: by then the queue exists and the call does nothing.
 */
async function createQueueOnce(boss: PgBoss, name: string, options: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, options);
      return;
    } catch (error) {
      if (sqlState(error) !== DEADLOCK || attempt >= 5) throw error;
      await new Promise((done) => setTimeout(done, 25 * attempt + Math.random() * 50));
    }
  }
}
