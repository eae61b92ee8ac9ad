// A bounded async event queue (MC-4). The producer side is synchronous and never blocks: `push`
// appends and returns whether the consumer is keeping up, like a Node stream's `write()`. The
// bound is explicit backpressure, not loss: past `highWaterMark` `push` returns false and a
// producer that can wait awaits `drained()`. Consumers iterate asynchronously.

export interface EventQueueOptions {
  /** Buffered items at which `push` starts returning false. Default 1024. */
  highWaterMark?: number;
}

export class EventQueueClosedError extends Error {
  constructor() {
    super("push after close: the event queue was already closed");
    this.name = "EventQueueClosedError";
  }
}

export class EventQueue<T> implements AsyncIterable<T> {
  readonly highWaterMark: number;
  // A growable ring would save little here: a plain array with a moving head and occasional
  // compaction keeps push O(1) and shift amortised O(1) without per-item allocation.
  private items: T[] = [];
  private head = 0;
  private closed = false;
  private failure: unknown = undefined;
  private waitingConsumer: ((result: IteratorResult<T>) => void) | undefined;
  private waitingConsumerReject: ((error: unknown) => void) | undefined;
  private drainWaiters: Array<() => void> = [];

  constructor(options: EventQueueOptions = {}) {
    this.highWaterMark = options.highWaterMark ?? 1024;
    if (!Number.isInteger(this.highWaterMark) || this.highWaterMark < 1) {
      throw new RangeError(`highWaterMark must be a positive integer, got ${String(options.highWaterMark)}`);
    }
  }

  /** Items buffered and not yet consumed. */
  get size(): number {
    return this.items.length - this.head;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Enqueue without blocking. Returns false when the buffer is at or past the high-water mark. */
  push(item: T): boolean {
    if (this.closed) throw new EventQueueClosedError();
    const consumer = this.waitingConsumer;
    if (consumer) {
      this.waitingConsumer = undefined;
      this.waitingConsumerReject = undefined;
      consumer({ value: item, done: false });
      return true;
    }
    this.items.push(item);
    return this.size < this.highWaterMark;
  }

  /** Resolves once the buffer is below half the high-water mark (or the queue is closed). */
  drained(): Promise<void> {
    if (this.size < this.highWaterMark / 2 || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** No more items; consumers finish after the buffered ones. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wakeConsumerAtEnd();
    this.releaseDrainWaiters();
  }

  /** Ends the queue with an error that consumers see after the buffered items. */
  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = error ?? new Error("event queue failed");
    this.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: async () => {
        // A consumer that stops early releases producers waiting for room.
        this.items = [];
        this.head = 0;
        this.releaseDrainWaiters();
        return { value: undefined, done: true };
      },
    };
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T;
      this.items[this.head] = undefined as T;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (this.drainWaiters.length > 0 && this.size < this.highWaterMark / 2) this.releaseDrainWaiters();
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) {
      if (this.failure !== undefined) {
        const error = this.failure;
        this.failure = undefined;
        return Promise.reject(error);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waitingConsumer = resolve;
      this.waitingConsumerReject = reject;
    });
  }

  private wakeConsumerAtEnd(): void {
    const resolve = this.waitingConsumer;
    const reject = this.waitingConsumerReject;
    if (!resolve) return;
    this.waitingConsumer = undefined;
    this.waitingConsumerReject = undefined;
    if (this.failure !== undefined && reject) {
      const error = this.failure;
      this.failure = undefined;
      reject(error);
    } else {
      resolve({ value: undefined, done: true });
    }
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const release of waiters) release();
  }
}
