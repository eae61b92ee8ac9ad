// A run's record while it runs: every event is shown (onEvent), traced, observed by the budget,
// counted (usage, replays, rollovers, the closing report, the terminal) and queued to be written
// in batches (batch.ts).
import { addUsage, type AgentEvent, emptyUsage, type TerminalStatus, type ToolDefinition } from "@cadre/core";
import type { NewRunEvent, Store } from "@cadre/store";
import type { RunBudget, SettledCall } from "../budgets/run-budget.js";
import { EventBatch } from "./batch.js";

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
  readonly #batch: EventBatch;
  #servedThisCall: string | undefined;
  /** An event due to be written is queued and not yet written. */
  #owed = false;

  constructor(private readonly sink: RecordSink) {
    this.#batch = new EventBatch(sink, this.usage);
  }

  get seq(): number {
    return this.#batch.seq;
  }

  /** Shows an event and queues it (a reason code gives, a drift noticed). */
  say(event: AgentEvent): void {
    this.sink.onEvent?.(event);
    this.#batch.queue(event);
  }

  /** Queues an event without showing it (one shown already, or to be shown later). */
  keep(event: AgentEvent): void {
    this.#batch.queue(event);
  }

  /** One of the session's events: shown, traced, observed by the budget, counted and queued. */
  take(event: AgentEvent, offered: readonly ToolDefinition[]): void {
    this.sink.onEvent?.(event);
    this.sink.trace.event(event);
    if (event.type === "usage") {
      addUsage(this.usage, event.usage);
      // The model the call's response named (Claude Code: its message's model, at turn_start).
      const servedModel = event.servedModel ?? this.#servedThisCall;
      this.#batch.settle(
        servedModel !== undefined ? { usage: event.usage, servedModel } : { usage: event.usage },
      );
      this.#servedThisCall = undefined;
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
    this.#batch.queue(event);
  }

  due(event: AgentEvent): boolean {
    return this.#batch.due(event);
  }

  /**
   * Writes what is due once `event` is recorded: a usage at once (its call settles before the next
   * event is read, so a budget it used up ends the run on that reason); any other due event as soon
   * as no further event is already waiting (`next`), so events that come together (a turn's end,
   * the terminal) are written in one transaction rather than one each, and none waits on the model.
   */
  async writeDue(event: AgentEvent, next: Promise<unknown>): Promise<void> {
    if (this.#batch.due(event)) this.#owed = true;
    if (!this.#owed) return;
    if (event.type !== "usage" && !this.#batch.full && (await waiting(next))) return;
    await this.writeOwed();
  }

  /** Writes the events due and not yet written (the stream ended). */
  async writeOwed(): Promise<void> {
    if (!this.#owed) return;
    this.#owed = false;
    await this.#batch.flush();
  }

  flush(): Promise<void> {
    this.#owed = false;
    return this.#batch.flush();
  }

  drain(): { batch: NewRunEvent[]; calls: SettledCall[] } {
    return this.#batch.drain();
  }
}

/** Whether `next` has settled already (by the time the events ready now have been taken). */
function waiting(next: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    next.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
  ]);
}
