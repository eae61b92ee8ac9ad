// A run's events on their way to the store, in batches: written at once for the events a lost
// process must leave behind (a usage, a tool's result, a turn's end, an error, the terminal, the
// native session's name), else every 64. A batch with usage is written with the run's totals and
// the settlement of its calls in one transaction, so the three never differ.
import type { AgentEvent, Usage } from "@cadre/core";
import type { NewRunEvent, Store } from "@cadre/store";
import type { RunBudget, SettledCall } from "../budgets/run-budget.js";

const FLUSH_AT = 64;
// A usage event is written as it arrives, with the run's totals: a run whose process dies shows
// every model call that completed. The native session is written as soon as it is named: a run
// lost with its process is reconciled from it (a Codex rollout) by the agent's next wake.
const FLUSH_ON = new Set<AgentEvent["type"]>([
  "usage",
  "tool_result",
  "turn_end",
  "error",
  "terminal",
  "session",
]);

export class EventBatch {
  #seq = 0;
  #pending: NewRunEvent[] = [];
  #settling: SettledCall[] = [];
  #usageChanged = false;

  constructor(
    private readonly run: { store: Store; runId: string; companyId: string; budget: RunBudget },
    private readonly totals: Usage,
  ) {}

  get seq(): number {
    return this.#seq;
  }

  queue(event: AgentEvent): void {
    const { runId, companyId } = this.run;
    this.#pending.push({ runId, companyId, seq: this.#seq++, type: event.type, data: event });
  }

  /** A model call whose usage arrived: settled with the batch that carries its usage event. */
  settle(call: SettledCall): void {
    this.#settling.push(call);
    this.#usageChanged = true;
  }

  /** Enough events wait to be written whatever comes next. */
  get full(): boolean {
    return this.#pending.length >= FLUSH_AT;
  }

  /** The run's first event is written at once: a feed follower learns that the run started. */
  due(event: AgentEvent): boolean {
    return this.#seq === 1 || this.#pending.length >= FLUSH_AT || FLUSH_ON.has(event.type);
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    const { store, budget, runId } = this.run;
    if (!this.#usageChanged) return void (await store.appendRunEvents(batch));
    this.#usageChanged = false;
    const totals = { ...this.totals };
    const calls = this.#settling;
    this.#settling = [];
    await store.transaction(
      async (tx) => {
        await tx.setRunUsage(runId, totals);
        await budget.settle(tx, calls);
        // Last: appending takes the company's feed lock (every run of the company appends under
        // it) and holds it to the commit, so it is held for one statement, not for the settlement.
        await tx.appendRunEvents(batch);
      },
      { isolation: "read committed" },
    );
    budget.settled();
  }

  /** What is left to write with the run's end: the queued events and the calls not yet settled. */
  drain(): { batch: NewRunEvent[]; calls: SettledCall[] } {
    const out = { batch: this.#pending, calls: this.#settling };
    this.#pending = [];
    this.#settling = [];
    return out;
  }
}
