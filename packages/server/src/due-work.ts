// The company at work in a server: every few seconds, the schedules' due ticks are taken
// (one process takes each, across machines) and every agent with due work is woken — in this
// process on SQLite, through the shared queue on PostgreSQL (workers run it; the queue coalesces an
// agent's waiting wakes). Which agents are due and why is the company layer's decision
// (work/dispatch.ts, work/due.ts); a wake started for due work that finds none costs nothing.
// `runNow` is the same pass for one company, asked for (`cadre run --server`), saying what it did.
// Each due agent is checked as `cadre run` checks it (checkDue: one read of the agent and of the
// budgets that apply); an in-process wake's plan takes what the check read instead of reading it again.
import {
  checkDue,
  type DueChecked,
  heldByBudget,
  dueAgents,
  type ScheduleTick,
  tickSchedules,
} from "@cadre/company";
import { errorMessage } from "@cadre/core";
import type { Store } from "@cadre/store";
import type { DueStart } from "./wakes.js";

export interface DueWorkOptions {
  store: Store;
  /** How often to look; default 10 s. */
  intervalMs?: number;
  /** Wakes the agent for its due work (in process, or enqueued); `checked`: what the pass read of it. */
  wake: (agentId: string, checked: DueChecked) => Promise<void> | void;
  /** Wakes the agent for its due work and says what became of it (runNow). */
  startDue?: (agentId: string, seed: string | undefined, checked: DueChecked) => Promise<DueStart>;
  log: (line: string) => void;
}

/** What one asked-for pass did: the ticks it took, the runs it started or found under way, … */
export interface DuePass {
  ticks: ScheduleTick[];
  /** The runs of the due wakes, in the order the agents were due (one already running included). */
  runs: { agentId: string; runId: string }[];
  /** Wakes queued for the workers that no worker started within the wait (PostgreSQL). */
  queued: { agentId: string; wakeId: string }[];
  /** Agents whose wake was refused before its run started; their requests stay pending. */
  problems: { agentId: string; message: string }[];
}

export class DueWorkLoop {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private stopped = false;
  /** The pass under way, so that an asked-for one runs after it (never two at once). */
  private current: Promise<unknown> = Promise.resolve();
  /** Agents a budget holds, with the refusal last logged for each. */
  private readonly held = new Map<string, string>();

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
    const pass = this.look();
    this.current = pass;
    await pass;
  }

  private async look(): Promise<void> {
    try {
      for (const tick of await tickSchedules(this.options.store, new Date()))
        this.options.log(
          `cadre: schedule of agent ${tick.agentId}: ${tick.outcome === "woken" ? "woken" : `skipped (${tick.reason}), no model call`}`,
        );
      for (const agentId of await dueAgents(this.options.store)) {
        if (this.stopped) break;
        const check = await checkDue(this.options.store, agentId);
        if (!check.due) continue;
        // Before a wake is queued: an exhausted budget holds it (its reasons stay pending, OP-5),
        // said once per agent and refusal rather than at every look.
        const refused = check.held;
        if (refused) {
          const line = `cadre: agent ${agentId} ${heldByBudget(refused, check.reasons)}`;
          if (this.held.get(agentId) !== refused.message) this.options.log(line);
          this.held.set(agentId, refused.message);
          continue;
        }
        this.held.delete(agentId);
        await this.options.wake(agentId, check.checked);
      }
    } catch (error) {
      this.options.log(`cadre: looking for due work failed: ${errorMessage(error)}`);
    } finally {
      this.busy = false;
    }
  }

  /**
   * The pass for one company, now (after the one under way): its schedules' due ticks taken, and
   * at most `maxWakes` of its due agents woken, each answered once its run has started. `seed`
   * seeds the offline model as `cadre run --seed` does (SEED:AGENT_ID).
   */
  async runNow(companyId: string, options: { maxWakes: number; seed?: number }): Promise<DuePass> {
    const startDue = this.options.startDue;
    if (!startDue) throw new Error("this due-work loop cannot start due wakes on request");
    const { store } = this.options;
    const pass = (async () => {
      while (this.busy) await this.current.catch(() => undefined);
      this.busy = true;
      try {
        const done: DuePass = { ticks: [], runs: [], queued: [], problems: [] };
        done.ticks = await tickSchedules(store, new Date(), companyId);
        for (const agentId of await dueAgents(store, companyId)) {
          if (this.stopped || done.runs.length + done.queued.length >= options.maxWakes) break;
          const check = await checkDue(store, agentId);
          if (!check.due) continue;
          if (check.held) {
            done.problems.push({ agentId, message: heldByBudget(check.held, check.reasons) });
            continue;
          }
          const start = await startDue(
            agentId,
            options.seed !== undefined ? `${options.seed}:${agentId}` : undefined,
            check.checked,
          );
          if (start.kind === "started") done.runs.push({ agentId, runId: start.runId });
          else if (start.kind === "queued") done.queued.push({ agentId, wakeId: start.wakeId });
          else if (start.kind === "refused") done.problems.push({ agentId, message: start.message });
        }
        return done;
      } finally {
        this.busy = false;
      }
    })();
    this.current = pass;
    return pass;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
