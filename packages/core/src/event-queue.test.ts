import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventQueue, EventQueueClosedError } from "./event-queue.js";

async function drain<T>(queue: EventQueue<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of queue) out.push(item);
  return out;
}

describe("EventQueue (MC-4)", () => {
  it("property: items come out in push order across chunk boundaries, whatever the interleaving of pushes and reads", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.integer({ min: 1, max: 700 }).map((n) => ({ push: n })),
            fc.integer({ min: 1, max: 700 }).map((n) => ({ read: n })),
          ),
          { maxLength: 12 },
        ),
        async (ops) => {
          const queue = new EventQueue<number>({ highWaterMark: 10_000 });
          const iterator = queue[Symbol.asyncIterator]();
          let pushed = 0;
          let read = 0;
          for (const op of ops) {
            if ("push" in op) for (let i = 0; i < op.push; i++) queue.push(pushed++);
            else
              for (let i = 0; i < op.read && read < pushed; i++) {
                const r = await iterator.next();
                expect(r).toEqual({ value: read++, done: false });
              }
            expect(queue.size).toBe(pushed - read);
          }
          queue.close();
          for (let r = await iterator.next(); !r.done; r = await iterator.next())
            expect(r.value).toBe(read++);
          expect(read).toBe(pushed);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("hands an item straight to a waiting consumer", async () => {
    const queue = new EventQueue<string>();
    const next = queue[Symbol.asyncIterator]().next();
    expect(queue.push("a")).toBe(true);
    expect(queue.size).toBe(0);
    await expect(next).resolves.toEqual({ value: "a", done: false });
  });

  it("backpressure: push returns false at the high-water mark and drained() resolves below half of it", async () => {
    const queue = new EventQueue<number>({ highWaterMark: 4 });
    expect([1, 2, 3].map((n) => queue.push(n))).toEqual([true, true, true]);
    expect(queue.push(4)).toBe(false);
    let released = false;
    const drained = queue.drained().then(() => (released = true));
    const iterator = queue[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    await Promise.resolve();
    expect(released).toBe(false); // 2 left: not below half of 4 yet
    await iterator.next();
    await drained;
    expect(released).toBe(true);
  });

  it("close ends consumers after the buffered items; push after close throws; fail surfaces after the items", async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.close();
    expect(() => queue.push(2)).toThrow(EventQueueClosedError);
    expect(await drain(queue)).toEqual([1]);
    const failing = new EventQueue<number>();
    failing.push(1);
    failing.fail(new Error("boom"));
    const iterator = failing[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    await expect(iterator.next()).rejects.toThrow("boom");
  });

  it("a consumer that stops early drops the buffer and releases waiting producers", async () => {
    const queue = new EventQueue<number>({ highWaterMark: 2 });
    for (let i = 0; i < 600; i++) queue.push(i);
    const waiting = queue.drained();
    for await (const item of queue) if (item === 0) break;
    await waiting;
    expect(queue.size).toBe(0);
  });

  it("an idle queue reuses its storage: after a full drain it starts again from the first slot", async () => {
    const queue = new EventQueue<number>({ highWaterMark: 10_000 });
    const iterator = queue[Symbol.asyncIterator]();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 300; i++) queue.push(i);
      for (let i = 0; i < 300; i++) expect((await iterator.next()).value).toBe(i);
      expect(queue.size).toBe(0);
    }
  });
});
