// Wakes started over HTTP run in the background: the route answers as soon as the run row exists
// (wakeAgent's onStart), and the run's events reach clients through the store and the feed. Every
// refusal that wakeAgent makes before the run starts (unknown agent, governance, a legacy wake
// without an API) still reaches the caller as an error, with nothing written.
//
// On PostgreSQL with a wake queue, the wake is a job instead: whichever worker takes it runs it
// (one running wake per agent, coalescing, leases; see cluster/). The route then waits, for a
// while, for the worker to start the run, so that it answers as the in-process path does.
import type { CeoMode } from "@cadre/model";
import { setTimeout as sleep } from "node:timers/promises";
import {
  assertBudgetRoom,
  cueTokenCount,
  type DueChecked,
  type ProbeBook,
  type WakeOptions,
  type WakeResult,
  wakeAgent,
  wakeIfDue,
} from "@cadre/company";
import { type BaseAgent, errorMessage, NotFoundError, UserInputError } from "@cadre/core";
import type { RunRow, Store } from "@cadre/store";
import type { Enqueued, WakeJob } from "./cluster/wake-queue.js";

export interface StartedWake {
  run: RunRow;
  cue: string;
  cueTokens: number;
  mode: CeoMode;
}

/** Where wakes go when they run elsewhere: ClusterParts.queue. */
export interface WakeEnqueuer {
  enqueue(wake: Omit<WakeJob, "wakeId">): Promise<Enqueued>;
}

export interface WakeRunnerOptions {
  store: Store;
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The server's probe cache: its wakes read (and refresh) connector readiness there. */
  probes?: ProbeBook;
  /** The API the legacy profile's CEO calls: this server's own URL, once it listens. */
  apiUrl: () => string | undefined;
  /** Told about runs that failed after they started (the run row records it too). */
  onBackgroundError?: (error: unknown) => void;
  /** Present: wakes are enqueued for the workers rather than run in this process. */
  queue?: WakeEnqueuer;
  /** How long request() waits for a worker to start a queued wake's run; default 10 s. */
  queueStartWaitMs?: number;
}

export type WakeRequest = Pick<WakeOptions, "agentId" | "trigger" | "profile" | "seed">;

/** What became of a due wake asked for now (WakeRunner.startDue). */
export type DueStart =
  | { kind: "started"; runId: string }
  | { kind: "queued"; wakeId: string }
  | { kind: "nothing" }
  | { kind: "refused"; message: string };

/** What the wake route answers: the run once it has started, and how the wake runs. */
export interface WakeAnswer {
  /** Null only for a queued wake whose run no worker has started yet (status "queued"). */
  run: RunRow | null;
  cue: string | null;
  cueTokens: number | null;
  mode: CeoMode | null;
  /** "queue": taken by a worker of the shared queue (PostgreSQL); "in-process": run by this server. */
  via: "queue" | "in-process";
  /** The queued wake (the one that runs, if this request joined one); null in-process. */
  wakeId: string | null;
  /** True when an earlier wake of the agent was still waiting: this request joined it. */
  coalesced: boolean;
}

export class WakeRunner {
  private readonly running = new Map<Promise<void>, { controller: AbortController; runId?: string }>();
  private readonly stopped = new AbortController();
  /** Live sessions of in-process wakes, by agent: a model switch is assessed in their lock (MC-13). */
  private readonly sessions = new Map<string, BaseAgent>();
  /** Agents whose due-work wake runs in this process now, with its run once started. */
  private readonly dueAgents = new Map<string, { runId?: string }>();

  constructor(private readonly options: WakeRunnerOptions) {}

  /** The server's data directory, where the agents' workspaces live (absent: none kept on disk). */
  get dataDir(): string | undefined {
    return this.options.dataDir;
  }

  /** How the route wakes an agent: through the queue when there is one, else in this process. */
  async request(request: WakeRequest): Promise<WakeAnswer> {
    if (!this.options.queue) {
      const started = await this.start(request);
      return { ...started, via: "in-process", wakeId: null, coalesced: false };
    }
    const { seed, ...rest } = request;
    // Before a wake is queued: a budget with no room refuses it here (409), nothing is queued.
    const agent = await this.options.store.getAgent(request.agentId);
    if (!agent) throw new NotFoundError(`agent ${request.agentId} not found`);
    await assertBudgetRoom(this.options.store, agent);
    const sent = await this.options.queue.enqueue({ ...rest, ...(seed !== undefined ? { seed } : {}) });
    const run = await this.awaitRun(sent.wakeId);
    const cue = run?.cue ?? null;
    return {
      run,
      cue,
      cueTokens: cue === null ? null : cueTokenCount(cue),
      mode: (run?.mode as CeoMode | undefined) ?? null,
      via: "queue",
      wakeId: sent.wakeId,
      coalesced: !sent.queued,
    };
  }

  /**
   * The run a worker started for the wake; undefined when none has within the wait (no worker is
   * free, or the agent runs another wake first). A wake that ended without a run was refused
   * before it started (governance, an inactive agent…): that refusal is the caller's error.
   */
  private async awaitRun(wakeId: string): Promise<RunRow | null> {
    const { store } = this.options;
    const until = Date.now() + (this.options.queueStartWaitMs ?? 10_000);
    for (;;) {
      const wake = await store.getWake(wakeId);
      const run = wake?.runId ? await store.getRun(wake.runId) : undefined;
      if (run) return run;
      // A due wake that found no due work when a worker took it ends without a run.
      if (wake?.status === "done") return null;
      if (wake?.status === "failed")
        throw new UserInputError(
          `the wake was refused before its run started: ${wake.error ?? "no reason recorded"}`,
        );
      if (Date.now() >= until || this.stopped.signal.aborted) return null;
      await sleep(100, undefined, { signal: this.stopped.signal }).catch(() => {});
    }
  }

  /** Resolves once the run has started; rejects with wakeAgent's refusal when it cannot start. */
  start(request: WakeRequest): Promise<StartedWake> {
    const controller = new AbortController();
    const apiUrl = this.options.apiUrl();
    return new Promise<StartedWake>((resolve, reject) => {
      let started = false;
      let live: BaseAgent | undefined;
      const entry: { controller: AbortController; runId?: string } = { controller };
      const run: Promise<WakeResult> = wakeAgent({
        ...request,
        store: this.options.store,
        signal: controller.signal,
        ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
        ...(this.options.env ? { env: this.options.env } : {}),
        ...(this.options.probes ? { probes: this.options.probes } : {}),
        ...(apiUrl ? { apiUrl } : {}),
        onStart: (info) => {
          started = true;
          entry.runId = info.run.id;
          resolve(info);
        },
        onSession: (session) => {
          live = session;
          this.sessions.set(request.agentId, session);
        },
      });
      const settled = run.then(
        () => undefined,
        (error: unknown) => {
          if (started) this.options.onBackgroundError?.(error);
          else reject(error);
        },
      );
      this.running.set(settled, entry);
      void settled.finally(() => {
        this.running.delete(settled);
        if (live && this.sessions.get(request.agentId) === live) this.sessions.delete(request.agentId);
      });
    });
  }

  /**
   * Wakes the agent for its due work (OP-1): enqueued for the workers when there is a queue (a due
   * wake that finds nothing due when it starts costs nothing), else run here in the background —
   * unless this process already runs a wake of the agent (it takes the new reasons when it ends).
   */
  async wakeDue(agentId: string, checked?: DueChecked): Promise<void> {
    await this.launchDue(agentId, undefined, false, checked);
  }

  /**
   * As wakeDue, and says what became of it (`cadre run --server`): the run that started (or the
   * due wake of the agent already running here), the queued wake no worker started within the
   * wait, nothing when no due work was left, or the refusal that kept it from starting.
   */
  startDue(agentId: string, seed?: number | string, checked?: DueChecked): Promise<DueStart> {
    return this.launchDue(agentId, seed, true, checked);
  }

  /** `checked`: what the due-work pass read of the agent, for an in-process wake's plan (a queued one reads its own). */
  private async launchDue(
    agentId: string,
    seed: number | string | undefined,
    wait: boolean,
    checked?: DueChecked,
  ): Promise<DueStart> {
    if (this.stopped.signal.aborted) return { kind: "nothing" };
    if (this.options.queue) {
      const sent = await this.options.queue.enqueue({
        agentId,
        due: true,
        ...(seed !== undefined ? { seed } : {}),
      });
      if (!wait) return { kind: "queued", wakeId: sent.wakeId };
      const run = await this.awaitRun(sent.wakeId).catch((error: unknown) => error as Error);
      if (run instanceof Error) return { kind: "refused", message: run.message };
      if (run) return { kind: "started", runId: run.id };
      const ended = (await this.options.store.getWake(sent.wakeId))?.status === "done";
      return ended ? { kind: "nothing" } : { kind: "queued", wakeId: sent.wakeId };
    }
    const already = this.dueAgents.get(agentId);
    if (already) return already.runId ? { kind: "started", runId: already.runId } : { kind: "nothing" };
    const controller = new AbortController();
    const entry: { controller: AbortController; runId?: string } = { controller };
    this.dueAgents.set(agentId, entry);
    let live: BaseAgent | undefined;
    let began: (start: DueStart) => void = () => {};
    const start = new Promise<DueStart>((resolve) => (began = resolve));
    const settled = wakeIfDue({
      agentId,
      store: this.options.store,
      signal: controller.signal,
      ...(checked ? { checked } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
      ...(this.options.env ? { env: this.options.env } : {}),
      ...(this.options.probes ? { probes: this.options.probes } : {}),
      onStart: (info) => {
        entry.runId = info.run.id;
        began({ kind: "started", runId: info.run.id });
      },
      onSession: (session) => {
        live = session;
        this.sessions.set(agentId, session);
      },
    }).then(
      () => began({ kind: "nothing" }),
      (error: unknown) => {
        if (entry.runId === undefined) began({ kind: "refused", message: errorMessage(error) });
        this.options.onBackgroundError?.(error);
      },
    );
    this.running.set(settled, entry);
    void settled.finally(() => {
      this.running.delete(settled);
      this.dueAgents.delete(agentId);
      if (live && this.sessions.get(agentId) === live) this.sessions.delete(agentId);
    });
    return wait ? start : { kind: "nothing" };
  }

  /**
   * Stops one running run of this process as SIGINT would (one `cancelled` terminal event, with
   * `reason`; the usage of the calls made is kept) and waits for it to end. False: no wake of this
   * process runs it (it ended, or a worker elsewhere runs it).
   */
  async stopRun(runId: string, reason: string): Promise<boolean> {
    for (const [settled, entry] of this.running) {
      if (entry.runId !== runId) continue;
      entry.controller.abort(reason);
      await settled;
      return true;
    }
    return false;
  }

  /** The agent's live session in this process (a running in-process wake), if any. */
  liveSession(agentId: string): BaseAgent | undefined {
    return this.sessions.get(agentId);
  }

  get active(): number {
    return this.running.size;
  }

  /**
   * Cancels every running wake (each ends with one `cancelled` terminal event, whose reason is
   * `reason` when given, e.g. "cancelled by SIGTERM") and waits for them; returns the ids of the
   * runs that ended cancelled.
   */
  async shutdown(reason?: string): Promise<string[]> {
    this.stopped.abort();
    const entries = [...this.running.values()];
    for (const { controller } of entries) controller.abort(reason);
    await Promise.all([...this.running.keys()]);
    const cancelled: string[] = [];
    for (const { runId } of entries) {
      const run = runId ? await this.options.store.getRun(runId).catch(() => undefined) : undefined;
      if (run?.status === "cancelled") cancelled.push(run.id);
    }
    return cancelled;
  }

  /** Waits for the running wakes to end on their own (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.keys()]);
  }
}
