// The session abstraction every harness subclasses (MC-1). BaseAgent owns what is common: the
// event queue, exactly one terminal event per product turn (MC-14), usage totals, cancellation,
// and the rule that a started stream never throws — failures become events.
import { EventQueue } from "../event-queue.js";
import { errorMessage } from "../errors.js";
import { describeToolListChange, ToolListFrozenError } from "../prompt/tool-list.js";
import type { Redactor } from "../secrets/redact.js";
import type { HarnessSessionState } from "../session/harness-session.js";
import type { AgentEvent, ContextSnapshot, ModelInfo, TerminalStatus, Usage } from "../types.js";
import type { ToolDefinition } from "./tool.js";

export interface SessionConfig {
  /** Stable per session; providers use it for prompt-cache affinity. */
  sessionId: string;
  systemPrompt: string;
  model: ModelInfo;
  /** Frozen for the session's lifetime (MC-3). */
  tools: readonly ToolDefinition[];
  /**
   * Events buffered for the consumer before the harness is paused (the event queue's high-water
   * mark, MC-4). Default 1024.
   */
  eventBuffer?: number;
  /**
   * Every key the process was configured with: each event the session emits passes
   * through it, so no provider text that echoes a key leaves the session unredacted.
   */
  redact?: Redactor;
}

export type Emit = (event: AgentEvent) => void;

export interface TurnOutcome {
  status: TerminalStatus;
  reason?: string;
}

export class SessionBusyError extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} is already running a turn; wait for its terminal event or cancel it`);
    this.name = "SessionBusyError";
  }
}

export abstract class BaseAgent {
  readonly config: SessionConfig;
  private readonly usageTotals: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  private active: AbortController | undefined;
  private cancelReason: string | undefined;
  /** The latest turn's queue and its cancel signal (backpressure waits on them). */
  private turn: { queue: EventQueue<AgentEvent>; signal: AbortSignal } | undefined;
  private pauses = 0;

  protected constructor(config: SessionConfig) {
    this.config = { ...config, tools: Object.freeze([...config.tools]) };
  }

  /** Usage of every model call in this session so far. */
  get usage(): Readonly<Usage> {
    return this.usageTotals;
  }

  get isRunning(): boolean {
    return this.active !== undefined;
  }

  /**
   * Sends one user prompt and streams the product turn. The stream ends with exactly one
   * `terminal` event and never throws.
   */
  send(prompt: string): AsyncIterable<AgentEvent> {
    if (this.active) throw new SessionBusyError(this.config.sessionId);
    const controller = new AbortController();
    this.active = controller;
    this.cancelReason = undefined;
    const queue = new EventQueue<AgentEvent>(
      this.config.eventBuffer !== undefined ? { highWaterMark: this.config.eventBuffer } : {},
    );
    this.turn = { queue, signal: controller.signal };
    let sawError = false;
    const redact = this.config.redact;
    const emit: Emit = (event) => {
      if (queue.isClosed) return; // late events after the terminal one are dropped by design (MC-14)
      if (event.type === "usage") this.addUsage(event.usage);
      if (event.type === "error") sawError = true;
      if (event.type === "terminal") return; // only BaseAgent emits the terminal event
      queue.push(redact ? redact.value(event) : event);
    };
    const finish = (outcome: TurnOutcome) => {
      if (queue.isClosed) return;
      const snapshot = this.safeContextSnapshot();
      if (snapshot) queue.push({ type: "context", snapshot: redact ? redact.value(snapshot) : snapshot });
      queue.push({
        type: "terminal",
        status: outcome.status,
        ...(outcome.reason ? { reason: redact ? redact.text(outcome.reason) : outcome.reason } : {}),
      });
      queue.close();
      this.active = undefined;
    };
    void (async () => {
      try {
        const outcome = await this.execute(prompt, emit, controller.signal);
        if (controller.signal.aborted) finish({ status: "cancelled", reason: this.cancelledBecause() });
        else finish(outcome);
      } catch (error) {
        if (controller.signal.aborted) {
          finish({ status: "cancelled", reason: this.cancelledBecause() });
        } else {
          if (!sawError) emit({ type: "error", message: errorMessage(error), code: "harness_error" });
          finish({ status: "failed", reason: errorMessage(error) });
        }
      }
    })();
    return queue;
  }

  /** Events of the latest turn buffered and not yet taken by the consumer. */
  get bufferedEvents(): number {
    return this.turn?.queue.size ?? 0;
  }

  /** How many times the harness was paused because the consumer fell behind (the queue's bound). */
  get backpressurePauses(): number {
    return this.pauses;
  }

  /**
   * Backpressure (MC-4): undefined while the consumer keeps up; once the turn's queue holds its
   * high-water mark, a promise that resolves when it has drained to half (or the turn is cancelled).
   * Harnesses await it between the vendor messages they read, so a slow consumer pauses the reading
   * of the vendor's stream (and, through the pipe, the vendor) instead of growing the queue: it holds
   * at most the high-water mark plus the events of one vendor message.
   */
  protected roomForEvents(): Promise<void> | undefined {
    const turn = this.turn;
    if (!turn || turn.queue.isClosed || turn.signal.aborted) return undefined;
    if (turn.queue.size < turn.queue.highWaterMark) return undefined;
    this.pauses++;
    const { signal } = turn;
    return new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener("abort", done);
        resolve();
      };
      signal.addEventListener("abort", done, { once: true });
      void turn.queue.drained().then(done);
    });
  }

  /**
   * Tools and MCP servers are fixed for a session (MC-3): the same list again is a no-op, any
   * addition, removal, reordering or redefinition is refused with ToolListFrozenError.
   */
  setTools(tools: readonly ToolDefinition[]): void {
    const change = describeToolListChange(this.config.tools, tools);
    if (change) throw new ToolListFrozenError(this.config.sessionId, change);
  }

  /**
   * Drops the last `count` messages of the transcript. Only the transcript changes: the system
   * prompt (with its MEMORY.md snapshot) and the tools stay as they were, so the cached prefix
   * survives (MC-3). Refused while a turn runs.
   */
  rewind(count: number): void {
    if (this.active) throw new SessionBusyError(this.config.sessionId);
    this.dropLastMessages(count);
  }

  /** Harness-specific transcript cut behind `rewind`. */
  protected dropLastMessages(_count: number): void {
    throw new Error(`session ${this.config.sessionId}: this harness cannot rewind`);
  }

  /**
   * Best-effort interrupt of the running turn; the turn still ends with one `cancelled` event,
   * whose reason is `reason` (default "cancelled by the operator", e.g. "cancelled by SIGINT").
   */
  cancel(reason?: string): void {
    if (this.active && !this.active.signal.aborted) this.cancelReason = reason;
    this.active?.abort();
    this.onCancel();
  }

  private cancelledBecause(): string {
    return this.cancelReason ?? "cancelled by the operator";
  }

  /** Harness-specific work of one product turn. May throw; BaseAgent turns that into events. */
  protected abstract execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome>;

  /** Harness-specific interrupt (e.g. abort the SDK call). */
  protected onCancel(): void {}

  /**
   * The session's context state, emitted as a `context` event just before each terminal event so the
   * run's stored events say what the controller looked like (`cadre sessions inspect`). Harnesses
   * without a context controller return undefined and emit nothing.
   */
  protected contextSnapshot(): ContextSnapshot | undefined {
    return undefined;
  }

  /**
   * What this session object says about its native session once a turn ended: which one the next
   * wake continues, whether it resumed, rolled over or healed one (the host persists it per agent).
   */
  get sessionState(): HarnessSessionState | undefined {
    return this.harnessSessionState();
  }

  protected harnessSessionState(): HarnessSessionState | undefined {
    return undefined;
  }

  /** Releases what the session holds (an SDK session, a provider registration). Idempotent. */
  async close(): Promise<void> {}

  private safeContextSnapshot(): ContextSnapshot | undefined {
    try {
      return this.contextSnapshot();
    } catch {
      return undefined; // a report must never break the stream's one terminal event
    }
  }

  private addUsage(usage: Usage): void {
    this.usageTotals.input += usage.input;
    this.usageTotals.output += usage.output;
    this.usageTotals.cacheRead += usage.cacheRead;
    this.usageTotals.cacheWrite += usage.cacheWrite;
  }
}
