// Promises that resolve once a condition over a session's observed events holds. A Pi session says
// little about when it is idle (its compaction and overflow continue run after prompt() resolves),
// so the harness waits on what its event listener saw; the listener calls check() after each event.
export class Waiters {
  #waiting: Array<{ ready: () => boolean; resolve: () => void }> = [];

  until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ ready, resolve }));
  }

  check(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const waiter of waiting) {
      if (waiter.ready()) waiter.resolve();
      else this.#waiting.push(waiter);
    }
  }
}
