// A run's record while it runs: every event is shown (onEvent), traced, observed by the budget and
// queued; the queue is written in batches (at once for the events a lost process must leave
// behind), and a batch with usage is written with the run's totals and the settlement of its calls
// in one transaction, so the three never differ.
import { addUsage, type AgentEvent, emptyUsage, type TerminalStatus, type ToolDefinition } from "@cadre/core";
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

export interface RecordSink {
  store: Store;
  runId: string;
  companyId: string;
  budget: RunBudget;
  onEvent: ((event: AgentEvent) => void) | undefined;
  trace: { event(event: AgentEvent): void };
}

export class RunRecord {
  readonly usage = emptyUsage();
  terminal: TerminalStatus = "failed";
  failure: string | null = null;
  replays = 0;
  rollovers = 0;
  /** The texts the agent wrote after its last tool call: its closing report. */
  closing: string[] = [];
  /** The native session id the run's context named. */
  ranIn: string | undefined;
  #seq = 0;
  #pending: NewRunEvent[] = [];
  #settling: SettledCall[] = [];
  #usageChanged = false;
  #servedThisCall: string | undefined;

  constructor(private readonly sink: RecordSink) {}

  get seq(): number {
    return this.#seq;
  }

  /** Shows an event and queues it (a reason code gives, a drift noticed). */
  say(event: AgentEvent): void {
    this.sink.onEvent?.(event);
    this.#pending.push({
      runId: this.sink.runId,
      companyId: this.sink.companyId,
      seq: this.#seq++,
      type: event.type,
      data: event,
    });
  }

  /** Queues an event without showing it (one shown already). */
  keep(event: AgentEvent): void {
    this.#pending.push({
      runId: this.sink.runId,
      companyId: this.sink.companyId,
      seq: this.#seq++,
      type: event.type,
      data: event,
    });
  }

  /** One of the session's events: shown, traced, observed by the budget, counted and queued. */
  take(event: AgentEvent, offered: readonly ToolDefinition[]): void {
    this.sink.onEvent?.(event);
    this.sink.trace.event(event);
    if (event.type === "usage") {
      addUsage(this.usage, event.usage);
      // The model the call's response named (Claude Code: its message's model, at turn_start).
      const servedModel = event.servedModel ?? this.#servedThisCall;
      this.#settling.push(
        servedModel !== undefined ? { usage: event.usage, servedModel } : { usage: event.usage },
      );
      this.#servedThisCall = undefined;
      this.#usageChanged = true;
    }
    this.sink.budget.observe(event, offered);
    if (event.type === "turn_start" && event.model) this.#servedThisCall = event.model;
    if (event.type === "tool_use") this.closing = [];
    if (event.type === "text_end") this.closing.push(event.text);
    if (event.type === "recovery" && event.action === "replay") this.replays++;
    if (event.type === "rollover") this.rollovers++;
    if (event.type === "context" && event.snapshot.sessionId !== undefined)
      this.ranIn = event.snapshot.sessionId;
    if (event.type === "terminal") {
      this.terminal = event.status;
      this.failure = event.status === "done" ? null : (event.reason ?? event.status);
    }
    // Streaming deltas are kept too: the stored run is the full event stream, replayable.
    this.keep(event);
  }

  /** The run's first event is written at once: a feed follower learns that the run started. */
  due(event: AgentEvent): boolean {
    return this.#seq === 1 || this.#pending.length >= FLUSH_AT || FLUSH_ON.has(event.type);
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    if (!this.#usageChanged) return void (await this.sink.store.appendRunEvents(batch));
    this.#usageChanged = false;
    const totals = { ...this.usage };
    const calls = this.#settling;
    this.#settling = [];
    const { budget, runId } = this.sink;
    await this.sink.store.transaction(
      async (tx) => {
        await tx.appendRunEvents(batch);
        await tx.setRunUsage(runId, totals);
        await budget.settle(tx, calls);
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
