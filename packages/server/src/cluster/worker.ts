// A wake worker: takes wakes from the shared queue and runs them with wakeAgent, on any number of
// machines at once. Per wake: claim it in the store under a lease (one running wake per agent; a
// redelivered wake finds its earlier outcome), run it through the lease's view of the store while a
// heartbeat renews the lease, then complete the job, hand it back for a retry (retryable failures
// only, see retry-policy.ts), or defer it while its agent is busy. Every worker also recovers wakes
// whose lease ran out (recovery.ts), so a worker killed mid-run costs one lease timeout.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  appliedBudgets,
  budgetRefusal,
  type BudgetRefusal,
  type DueChecked,
  LeaseLostError,
  lossOf,
  thisProcess,
  WakeLease,
  type WakeOptions,
  wakeAgent,
  wakeIfDue,
} from "@cadre/company";
import { errorMessage } from "@cadre/core";
import type { WakeStatus } from "@cadre/model";
import { openStore, PgNotifications, type Store } from "@cadre/store";
import { recoverExpiredWakes } from "./recovery.js";
import { DueWorkLoop } from "../due-work.js";
import { isRetryableRun, isRetryableStartFailure } from "./retry-policy.js";
import { WakeQueue, type WakeJobRecord, type WakeQueueOptions, wakeChannel } from "./wake-queue.js";

export interface WorkerOptions {
  /** The store's PostgreSQL database (the queue lives there too). */
  url: string;
  /** The store's schema; default the connection's. */
  schema?: string;
  queue?: Pick<WakeQueueOptions, "schema" | "queue" | "retryLimit" | "retryDelaySeconds" | "expireInSeconds">;
  /** Wakes run at once by this worker; default 1. */
  concurrency?: number;
  /** Lease length: a dead worker's wake is recovered this long after its last heartbeat. Default 30 s. */
  leaseMs?: number;
  /** Idle fetch interval; a NOTIFY from the enqueuer wakes idle loops sooner. Default 2 s. */
  pollMs?: number;
  /** Delay before a deferred wake (its agent was busy) is due again; default 1 s. */
  deferSeconds?: number;
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * The API a legacy-profile wake's CEO calls (C4-7): `cadre serve`'s own URL for its embedded
   * worker. Absent: legacy wakes fail, saying how to run one.
   */
  apiUrl?: () => string | undefined;
  workerId?: string;
  /** Extra options for every wake (tests: a scripted model; the benchmark: a model latency). */
  wakeDefaults?: Partial<Pick<WakeOptions, "script" | "wrapStreamFn">>;
  log?: (line: string) => void;
  /** Told how each job ended (tests, the benchmark). */
  onOutcome?: (outcome: WakeOutcome) => void;
  /**
   * The company at work: tick the schedules (one process takes each tick, across machines) and
   * enqueue a wake for every agent with due work, every `intervalMs` (default 10 s). Off unless given.
   */
  dueWork?: { intervalMs?: number };
}

export interface WakeOutcome {
  wakeId: string;
  agentId: string;
  /**
   * done/failed: the wake ended; retrying: handed back for a retry; deferred: its agent was busy;
   * duplicate: a redelivery of a wake that already ran or runs elsewhere; lost: the lease was lost;
   * cancelled: a budget that applies had no room, so the wake never started (reason budget).
   */
  outcome: Exclude<WakeStatus, "running"> | "deferred" | "duplicate" | "lost" | "cancelled";
  runId?: string;
  error?: string;
}

export class WakeWorker {
  readonly workerId: string;
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly running = new Set<WakeLease>();
  /** Idle loops waiting for work; a NOTIFY, a finished wake or stop() wakes them all. */
  private readonly idle = new Set<() => void>();
  private sweeper: NodeJS.Timeout | undefined;
  private dueWork: DueWorkLoop | undefined;
  /** Aborted when stop() gives up waiting: cancels the runs still going. */
  private readonly cancelAll = new AbortController();
  private readonly leaseMs: number;
  private readonly log: (line: string) => void;

  private constructor(
    private readonly options: WorkerOptions,
    private readonly store: Store,
    private readonly queue: WakeQueue,
    private readonly notifications: PgNotifications,
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  static async start(options: WorkerOptions): Promise<WakeWorker> {
    const concurrency = options.concurrency ?? 1;
    const store = await openStore({
      url: options.url,
      poolSize: concurrency + 3,
      ...(options.schema ? { schema: options.schema } : {}),
    });
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    let queue: WakeQueue | undefined;
    let notifications: PgNotifications | undefined;
    try {
      queue = await WakeQueue.open({ url: options.url, ...options.queue, log });
      notifications = new PgNotifications(options.url, log);
      const worker = new WakeWorker(options, store, queue, notifications);
      await notifications.listen(wakeChannel(queue.name), () => worker.wakeIdle());
      await notifications.start();
      worker.sweeper = setInterval(() => void worker.recover(), Math.max(50, Math.floor(worker.leaseMs / 2)));
      // What died before this worker started is recovered now, not a sweep later.
      await worker.recover();
      for (let i = 0; i < concurrency; i++) worker.loops.push(worker.loop());
      if (options.dueWork) {
        const opened = queue;
        worker.dueWork = new DueWorkLoop({
          store,
          ...(options.dueWork.intervalMs !== undefined ? { intervalMs: options.dueWork.intervalMs } : {}),
          wake: async (agentId) => void (await opened.enqueue({ agentId, due: true })),
          log,
        }).start();
      }
      return worker;
    } catch (error) {
      await notifications?.close();
      await queue?.stop();
      await store.close();
      throw error;
    }
  }

  /** Wakes running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Stops taking wakes and waits up to `drainMs` for the running ones; those still running then
   * are cancelled (each run ends with one `cancelled` terminal event) and their wakes fail.
   */
  async stop(drainMs = 30_000): Promise<void> {
    this.stopping = true;
    this.dueWork?.stop();
    this.wakeIdle();
    clearInterval(this.sweeper);
    const drained = Promise.all(this.loops);
    // Unreferenced: a process that has stopped its worker can exit without waiting for this timer.
    const timedOut = await Promise.race([drained.then(() => false), sleep(drainMs, true, { ref: false })]);
    if (timedOut) {
      this.cancelAll.abort();
      await drained;
    }
    await this.notifications.close();
    await this.queue.stop();
    await this.store.close();
  }

  private async loop(): Promise<void> {
    const pollMs = this.options.pollMs ?? 2000;
    while (!this.stopping) {
      let job: WakeJobRecord | undefined;
      try {
        job = await this.queue.fetch();
      } catch (error) {
        this.log(`cadre worker ${this.workerId}: fetching a wake failed: ${errorMessage(error)}`);
      }
      if (!job) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.idle.delete(done);
            resolve();
          };
          const timer = setTimeout(done, pollMs);
          this.idle.add(done);
        });
        continue;
      }
      try {
        this.report(await this.handle(job));
      } catch (error) {
        // The database failed under us (or our bug). The job goes back for a retry; if a run had
        // started, its wake is still leased and recovery ends it first, so the retry finds it ended.
        this.log(
          `cadre worker ${this.workerId}: wake ${job.data.wakeId} failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        await this.queue.fail(job, { error: errorMessage(error) }).catch(() => {});
      }
      // More may be due (a retry, a deferred wake): idle loops look too.
      this.wakeIdle();
    }
  }

  private wakeIdle(): void {
    for (const done of [...this.idle]) done();
  }

  private report(outcome: WakeOutcome): void {
    this.options.onOutcome?.(outcome);
  }

  private async recover(): Promise<void> {
    try {
      for (const wake of await recoverExpiredWakes(this.store)) {
        // Its job is still active under the dead worker until the queue's backstop expiry: a new
        // job brings the wake back now (the trigger is inferred again; seeds are not kept).
        if (!wake.runId) await this.queue.requeue({ wakeId: wake.id, agentId: wake.agentId });
        this.log(
          `cadre worker ${this.workerId}: recovered wake ${wake.id} of agent ${wake.agentId} from worker ${wake.workerId}: ${wake.runId ? `it failed with its run ${wake.runId}` : "no run had started, it will be retried"}`,
        );
      }
    } catch (error) {
      this.log(`cadre worker ${this.workerId}: recovery pass failed: ${errorMessage(error)}`);
    }
  }

  private async handle(job: WakeJobRecord): Promise<WakeOutcome> {
    const { wakeId, agentId } = job.data;
    const base = { wakeId, agentId };
    const agent = await this.store.getAgent(agentId);
    if (!agent) {
      await this.queue.complete(job, { status: "failed", error: "agent not found" });
      return { ...base, outcome: "failed", error: `agent ${agentId} not found` };
    }
    // Before a wake starts: an exhausted budget cancels it, and every queued wake it covers. The
    // wake's plan takes the agent and its budgets from these reads instead of making them again.
    const budgets = await appliedBudgets(this.store, agent);
    const refused = await budgetRefusal(this.store, agent, budgets);
    if (refused) {
      await this.cancelQueued(refused);
      const error = `budget: ${refused.message}`;
      await this.queue.complete(job, { status: "cancelled", reason: "budget", error });
      return { ...base, outcome: "cancelled", error };
    }
    const lease = new WakeLease(this.store, wakeId, this.workerId, this.leaseMs);
    const claim = {
      id: wakeId,
      companyId: agent.companyId,
      agentId,
      workerId: this.workerId,
      leaseUntil: lease.leaseUntil(),
      owner: thisProcess(),
    };
    let claimed = await this.store.claimWake(claim);
    if (claimed.outcome !== "claimed" && lossOf(claimed.wake)) {
      // What stands in the way is a wake whose worker is gone: recover it now rather than wait.
      await this.recover();
      claimed = await this.store.claimWake({ ...claim, leaseUntil: lease.leaseUntil() });
    }
    switch (claimed.outcome) {
      case "finished":
      case "held":
        await this.queue.complete(job, { duplicate: true, status: claimed.wake.status });
        return {
          ...base,
          outcome: "duplicate",
          ...(claimed.wake.runId ? { runId: claimed.wake.runId } : {}),
        };
      case "busy":
        await this.queue.defer(job, this.options.deferSeconds ?? 1);
        return { ...base, outcome: "deferred" };
      case "claimed":
        return this.run(job, lease, claimed.wake.attempts, { agent, budgets });
    }
  }

  /**
   * A hard budget stop cancels the jobs waiting in the queue of that company (its budget) or agent
   * (its own), reason budget. The wake reasons behind them stay pending in the store (OP-5): the
   * due-work loop queues them again once the budget is raised.
   */
  private async cancelQueued(refusal: BudgetRefusal): Promise<void> {
    try {
      const agentIds =
        refusal.scope === "agent" && refusal.agentId !== null
          ? [refusal.agentId]
          : (await this.store.listAgents(refusal.companyId)).map((a) => a.id);
      const cancelled = await this.queue.cancelWaiting(agentIds);
      if (cancelled > 0)
        this.log(
          `cadre worker ${this.workerId}: cancelled ${cancelled} queued wake(s): budget: ${refusal.message}`,
        );
    } catch (error) {
      this.log(`cadre worker ${this.workerId}: cancelling queued wakes failed: ${errorMessage(error)}`);
    }
  }

  private async run(
    job: WakeJobRecord,
    lease: WakeLease,
    attemptsBefore: number,
    checked: DueChecked,
  ): Promise<WakeOutcome> {
    const { wakeId, agentId, trigger, seed, profile, due } = job.data;
    const apiUrl = this.options.apiUrl?.();
    const base = { wakeId, agentId };
    this.running.add(lease);
    lease.startHeartbeat();
    let terminal: string | undefined;
    let stopReason: string | null = null;
    let thrown: unknown;
    try {
      const result = await (due ? wakeIfDue : wakeAgent)({
        ...this.options.wakeDefaults,
        store: lease.view(),
        underLease: true,
        agentId,
        checked,
        signal: AbortSignal.any([lease.signal, this.cancelAll.signal]),
        ...(trigger ? { trigger } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(profile ? { profile } : {}),
        ...(apiUrl ? { apiUrl } : {}),
        ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
        ...(this.options.env ? { env: this.options.env } : {}),
      });
      // A due-work wake that found nothing due started no run: the wake ends done, nothing spent.
      terminal = result ? result.terminal : "done";
      stopReason = result?.stopReason ?? null;
    } catch (error) {
      thrown = error;
    } finally {
      lease.stop();
      this.running.delete(lease);
    }
    const runId = lease.runId;
    const withRun = runId ? { runId } : {};
    if (lease.lost || thrown instanceof LeaseLostError) {
      // Recovery has ended this wake (and its run); the outcome is its.
      await this.queue.complete(job, { lost: true });
      return { ...base, ...withRun, outcome: "lost", error: "lease lost" };
    }
    const retriesLeft = job.retryCount < job.retryLimit;
    let retry: boolean;
    let error: string | null;
    if (thrown !== undefined) {
      error = errorMessage(thrown);
      // Started runs end inside wakeAgent; a throw after the start means the store failed under it.
      retry = runId === undefined && isRetryableStartFailure(thrown);
    } else if (terminal === "done") {
      error = null;
      retry = false;
    } else {
      const run = runId ? await this.store.getRun(runId) : undefined;
      error = run?.error ?? terminal ?? "failed";
      retry =
        terminal === "failed" && runId !== undefined && isRetryableRun(await this.store.listRunEvents(runId));
    }
    retry &&= retriesLeft && !this.stopping;
    const status: Exclude<WakeStatus, "running"> =
      terminal === "done" && thrown === undefined ? "done" : retry ? "retrying" : "failed";
    if (!(await this.store.releaseWake(wakeId, this.workerId, { status, error }))) {
      await this.queue.complete(job, { lost: true });
      return { ...base, ...withRun, outcome: "lost", error: "lease lost" };
    }
    if (stopReason === "budget") {
      // The run hit a hard limit: the wakes queued behind it under that budget never start.
      const agent = await this.store.getAgent(agentId);
      const refusal = agent ? await budgetRefusal(this.store, agent) : undefined;
      if (refusal) await this.cancelQueued(refusal);
    }
    if (status === "retrying") await this.queue.fail(job, { error, attempt: attemptsBefore + 1 });
    else await this.queue.complete(job, { status, runId: runId ?? null, error });
    return { ...base, ...withRun, outcome: status, ...(error ? { error } : {}) };
  }
}
