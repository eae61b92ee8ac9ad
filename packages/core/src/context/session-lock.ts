// One async mutex per session, shared by set-model and send (MC-13), so a model-switch
// assessment and the send it guards can never interleave. FIFO, no timers, no I/O.

export class SessionLock {
  #tail: Promise<void> = Promise.resolve();
  #held = false;

  get locked(): boolean {
    return this.#held;
  }

  /** Runs `critical` once every earlier holder has finished; a throw releases the lock too. */
  run<T>(critical: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(async () => {
      this.#held = true;
      try {
        return await critical();
      } finally {
        this.#held = false;
      }
    });
    // The chain must survive a rejected holder, or the lock would stay jammed.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
