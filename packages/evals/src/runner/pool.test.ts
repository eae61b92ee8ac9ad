import { describe, expect, it } from "vitest";
import { mapBounded } from "./pool.js";
import { sampleSeed } from "./seeds.js";

describe("bounded parallelism", () => {
  it("never has more than `limit` tasks in flight and keeps input order", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0], 2, async (x) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, x * 3));
      inFlight--;
      return x * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
    await expect(mapBounded([1], 0, async (x) => x)).rejects.toThrow(/concurrency/);
  });

  it("starts no new task after one fails (a cassette miss ends the run), and reports that failure", async () => {
    const started: number[] = [];
    const run = mapBounded([0, 1, 2, 3, 4, 5], 2, async (x) => {
      started.push(x);
      await new Promise((r) => setTimeout(r, 5));
      if (x === 1) throw new Error(`task ${x} failed`);
      return x;
    });
    await expect(run).rejects.toThrow("task 1 failed");
    await new Promise((r) => setTimeout(r, 30));
    expect(started).toEqual([0, 1, 2]);
  });
});

describe("sample seeds", () => {
  it("are derived from the run seed, the scenario and the sample: stable, and different per sample", () => {
    expect(sampleSeed(7, "a", 0)).toBe(sampleSeed(7, "a", 0));
    const seeds = new Set([
      sampleSeed(7, "a", 0),
      sampleSeed(7, "a", 1),
      sampleSeed(7, "b", 0),
      sampleSeed(8, "a", 0),
    ]);
    expect(seeds.size).toBe(4);
    expect(Number.isInteger(sampleSeed(1, "x", 3)) && sampleSeed(1, "x", 3) < 2 ** 32).toBe(true);
  });
});
