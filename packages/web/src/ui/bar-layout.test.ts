import { describe, expect, it } from "vitest";
import { barRows, niceTicks } from "./bar-layout.js";

describe("bar chart layout", () => {
  it("ticks start at 0, step by 1, 2 or 5 × 10^k and end at or above the largest value", () => {
    expect(niceTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(3.2)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    for (const max of [0.03, 1, 6, 17, 99, 1234]) {
      const t = niceTicks(max);
      expect(t[0]).toBe(0);
      expect(t.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(12);
    }
    // Nothing to show still draws an axis.
    expect(niceTicks(0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it("rows do not overlap: each row's bars and name lie inside it, one after the other", () => {
    const size = { bar: 10, gap: 2, pad: 5, nameLine: 16 };
    const { rows, height } = barRows(3, 2, size);
    const rowHeight = 16 + 10 * 2 + 2 + 10;
    expect(height).toBe(3 * rowHeight);
    rows.forEach((r, i) => {
      expect(r.nameY).toBeGreaterThanOrEqual(i * rowHeight);
      expect(r.bars[0]!).toBeGreaterThan(r.nameY);
      expect(r.bars[1]! + size.bar).toBeLessThanOrEqual((i + 1) * rowHeight);
      expect(r.bars[1]! - r.bars[0]!).toBe(size.bar + size.gap);
    });
  });
});
