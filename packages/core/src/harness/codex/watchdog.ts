// The Codex reconnect watchdog (MC-11): a fallback close-out for an exec run that makes no progress,
// never a diagnosis. It aborts the run's process when no progress arrived for `ms`; the caller's own
// cancel passes through the same signal. Reconnect notices are not progress: with no route to its
// model server Codex 0.163 writes "Reconnecting... waiting for network" at growing intervals for as
// long as it runs (seen on the real binary against a refused loopback port), so a watchdog
// reset by them would never fire. A second, shorter bound covers the provider that cannot be
// reached: once Codex says it is reconnecting, `unreachableMs` more without progress close the run too
// (Codex's own retry settings do not bound "waiting for network": it waits as long as it runs).
import type { CodexLine } from "./translate/wire.js";

const RECONNECT = /^Reconnecting\b/i;

/** A line that only says Codex is retrying its connection: the run has not moved. */
export function isReconnectNotice(line: CodexLine): boolean {
  if (line.type === "error") return RECONNECT.test(line.message ?? "");
  if (line.item?.type === "error") return RECONNECT.test(line.item.message ?? "");
  return false;
}
export class RunWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private unreachableTimer: NodeJS.Timeout | undefined;
  #unreachable = false;
  private readonly onCancel = () => this.controller.abort(this.cancelReason);
  #fired = false;

  constructor(
    private readonly ms: number,
    private readonly cancel: AbortSignal,
    private readonly unreachableMs = Number.POSITIVE_INFINITY,
  ) {
    if (cancel.aborted) this.controller.abort(cancel.reason);
    else cancel.addEventListener("abort", this.onCancel, { once: true });
    this.reset();
  }

  private get cancelReason(): unknown {
    return this.cancel.reason;
  }

  /** Aborted by the caller's cancel or by the watchdog. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when silence, not the caller, ended the run. */
  get fired(): boolean {
    return this.#fired;
  }

  /** True when the provider stayed unreachable (reconnect notices only) for the shorter bound. */
  get unreachable(): boolean {
    return this.#unreachable;
  }

  /** Codex said it is reconnecting: the unreachable bound starts, unless it runs already. */
  reconnecting(): void {
    if (this.controller.signal.aborted || this.unreachableTimer !== undefined) return;
    if (!Number.isFinite(this.unreachableMs)) return;
    this.unreachableTimer = setTimeout(() => {
      this.#fired = true;
      this.#unreachable = true;
      this.controller.abort(new Error("codex provider unreachable"));
    }, this.unreachableMs);
    this.unreachableTimer.unref();
  }

  /** An event arrived: the silence starts again. */
  reset(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.unreachableTimer);
    this.unreachableTimer = undefined;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.#fired = true;
      this.controller.abort(new Error("codex reconnect watchdog"));
    }, this.ms);
    this.timer.unref();
  }

  /** Stops the run for the caller's own reason (not silence, not a cancel). */
  abortRun(): void {
    clearTimeout(this.timer);
    clearTimeout(this.unreachableTimer);
    this.controller.abort(new Error("the run was stopped by the host"));
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.unreachableTimer);
    this.cancel.removeEventListener("abort", this.onCancel);
  }
}
