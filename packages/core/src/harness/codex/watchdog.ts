// The Codex reconnect watchdog (MC-11): a fallback close-out for an exec run that has gone silent,
// never a diagnosis. It aborts the run's process when no event arrived for `ms`; the caller's own
// cancel passes through the same signal.
export class RunWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onCancel = () => this.controller.abort(this.cancelReason);
  #fired = false;

  constructor(
    private readonly ms: number,
    private readonly cancel: AbortSignal,
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

  /** An event arrived: the silence starts again. */
  reset(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.#fired = true;
      this.controller.abort(new Error("codex reconnect watchdog"));
    }, this.ms);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.cancel.removeEventListener("abort", this.onCancel);
  }
}
