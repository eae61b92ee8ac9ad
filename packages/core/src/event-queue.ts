// A bounded async event queue (MC-4). The producer side is synchronous and never blocks: `push`
// appends and returns whether the consumer is keeping up, like a Node stream's `write()`. The
// bound is explicit backpressure, not loss: past `highWaterMark` `push` returns false and a
// producer that can wait awaits `drained()`. Consumers iterate asynchronously.
//
// Every harness event passes through here, so the buffer is a chain of fixed-size chunks: push and
// shift are O(1) with no copying (a plain array would need periodic compaction), one spare chunk is
// recycled, and an idle queue sits on a single chunk. `npm run bench` measures it against a bare
// async iterator.

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

const CHUNK_SIZE = 256;

interface Chunk<T> {
  items: Array<T | undefined>;
  next: Chunk<T> | undefined;
}

function newChunk<T>(): Chunk<T> {
  return { items: new Array<T | undefined>(CHUNK_SIZE).fill(undefined), next: undefined };
}

export class EventQueue<T> implements AsyncIterable<T> {
  readonly highWaterMark: number;
  private head: Chunk<T> = newChunk();
  private headIndex = 0;
  private tail: Chunk<T> = this.head;
  private tailIndex = 0;
  private count = 0;
  private spare: Chunk<T> | undefined;
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
    return this.count;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Enqueue without blocking. Returns false when the buffer is at or past the high-water mark. */
  push(item: T): boolean {
    if (this.closed) throw new EventQueueClosedError();
    const consumer = this.waitingConsumer;
    if (consumer !== undefined) {
      this.waitingConsumer = undefined;
      this.waitingConsumerReject = undefined;
      consumer({ value: item, done: false });
      return true;
    }
    if (this.tailIndex === CHUNK_SIZE) {
      const chunk = this.spare ?? newChunk<T>();
      this.spare = undefined;
      this.tail.next = chunk;
      this.tail = chunk;
      this.tailIndex = 0;
    }
    this.tail.items[this.tailIndex++] = item;
    return ++this.count < this.highWaterMark;
  }

  /** Resolves once the buffer is below half the high-water mark (or the queue is closed). */
  drained(): Promise<void> {
    if (this.count < this.highWaterMark / 2 || this.closed) return Promise.resolve();
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
        this.head = this.tail = newChunk();
        this.headIndex = this.tailIndex = this.count = 0;
        this.releaseDrainWaiters();
        return { value: undefined, done: true };
      },
    };
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.count > 0) return Promise.resolve({ value: this.shift(), done: false });
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

  /** Takes the oldest buffered item; only called when count > 0. */
  private shift(): T {
    if (this.headIndex === CHUNK_SIZE) {
      const used = this.head;
      this.head = used.next as Chunk<T>;
      this.headIndex = 0;
      used.next = undefined;
      this.spare = used;
    }
    const items = this.head.items;
    const value = items[this.headIndex] as T;
    items[this.headIndex++] = undefined; // release the reference for the GC
    if (--this.count === 0) {
      // Empty: restart at the front of the tail chunk, so an idle queue never grows.
      this.head = this.tail;
      this.headIndex = this.tailIndex = 0;
    }
    if (this.drainWaiters.length > 0 && this.count < this.highWaterMark / 2) this.releaseDrainWaiters();
    return value;
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
