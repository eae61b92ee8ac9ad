// Which rows a long list renders: found by binary search over measured-or-estimated heights.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RowHeights, visibleRange } from "./virtual-window.js";

describe("RowHeights", () => {
  it("starts from estimates and follows measurements", () => {
    const rows = new RowHeights((i) => (i % 2 === 0 ? 20 : 40));
    rows.setCount(4);
    expect([0, 1, 2, 3, 4].map((i) => rows.offsetOf(i))).toEqual([0, 20, 60, 80, 120]);
    expect(rows.set(1, 100)).toBe(true);
    expect(rows.set(1, 100)).toBe(false);
    expect(rows.set(9, 10)).toBe(false);
    expect(rows.total()).toBe(180);
    rows.setCount(2);
    expect(rows.total()).toBe(120);
  });

  it("finds the row at any position", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 200 }),
        fc.nat(),
        (heights, probe) => {
          const rows = new RowHeights(() => 10);
          rows.setCount(heights.length);
          heights.forEach((h, i) => rows.set(i, h));
          for (let i = 0; i < heights.length; i++) expect(rows.indexAt(rows.offsetOf(i))).toBe(i);
          const y = probe % (rows.total() + 50);
          const i = rows.indexAt(y);
          expect(rows.offsetOf(i)).toBeLessThanOrEqual(y);
          if (i < heights.length - 1) expect(rows.offsetOf(i + 1)).toBeGreaterThan(y);
        },
      ),
    );
  });
});

describe("visibleRange", () => {
  it("covers the viewport plus the overscan, and no more, in a 10,000-row list", () => {
    const rows = new RowHeights(() => 30);
    rows.setCount(10_000);
    expect(visibleRange(rows, 0, 600, 200)).toEqual({ start: 0, end: 27 });
    const mid = visibleRange(rows, 150_000, 600, 200);
    expect(mid.start).toBe(Math.floor((150_000 - 200) / 30));
    expect(mid.end).toBe(Math.floor((150_000 + 800) / 30) + 1);
    expect(visibleRange(rows, 299_400, 600, 200).end).toBe(10_000);
    expect(visibleRange(new RowHeights(() => 30), 0, 600, 200)).toEqual({ start: 0, end: 0 });
  });
});
