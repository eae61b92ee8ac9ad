// The company at work in a server (issue 17): every few seconds, the schedules' due ticks are taken
// (one process takes each, across machines) and every agent with due work is woken — in this
// process on SQLite, through the shared queue on PostgreSQL (workers run it; the queue coalesces an
// agent's waiting wakes). Which agents are due and why is the company layer's decision
// (work/dispatch.ts, work/due.ts); a wake started for due work that finds none costs nothing.
import { cancelIfOverBudget, dropStaleRequests, dueAgents, tickSchedules } from "@cadre/company";
import { errorMessage } from "@cadre/core";
import type { Store } from "@cadre/store";

export interface DueWorkOptions {
  store: Store;
  /** How often to look; default 10 s. */
  intervalMs?: number;
  /** Wakes the agent for its due work (in process, or enqueued). */
  wake: (agentId: string) => Promise<void> | void;
  log: (line: string) => void;
}

export class DueWorkLoop {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private stopped = false;

  constructor(private readonly options: DueWorkOptions) {}

  start(): this {
    this.timer = setInterval(() => void this.pass(), this.options.intervalMs ?? 10_000);
    this.timer.unref();
    void this.pass();
    return this;
  }

  /** One look: take the due ticks, wake the due agents. Never two at once. */
  async pass(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      for (const tick of await tickSchedules(this.options.store, new Date()))
        this.options.log(
          `cadre: schedule of agent ${tick.agentId}: ${tick.outcome === "woken" ? "woken" : `skipped (${tick.reason}), no model call`}`,
        );
      for (const agentId of await dueAgents(this.options.store)) {
        if (this.stopped) break;
        if ((await dropStaleRequests(this.options.store, agentId)) === 0) continue;
        // Before a wake is queued: an exhausted budget cancels the agent's queued wakes instead.
        const refused = await cancelIfOverBudget(this.options.store, agentId);
        if (refused) {
          this.options.log(
            `cadre: agent ${agentId} not woken, its queued wakes cancelled: ${refused.message}`,
          );
          continue;
        }
        await this.options.wake(agentId);
      }
    } catch (error) {
      this.options.log(`cadre: looking for due work failed: ${errorMessage(error)}`);
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
