import { describe, expect, it } from "vitest";
import { bestJaccard, functionOf, jaccard, median, medianBand, precisionAgainst } from "./measures.js";

describe("measures", () => {
  it("median and the ±1 band around it (both middle values of an even sample are medians)", () => {
    expect(median([3, 5, 4])).toBe(4);
    expect(median([3, 3, 4, 5])).toBe(3.5);
    expect(medianBand([3, 5, 4], 1)).toEqual([3, 5]);
    expect(medianBand([3, 3, 4, 5], 1)).toEqual([2, 5]);
    expect(medianBand([0, 0, 1], 1)).toEqual([0, 1]);
    expect(medianBand([], 1)).toEqual([0, 1]);
  });

  it("Jaccard, best match over baseline teams, and precision against the baseline's functions", () => {
    const s = (...x: string[]) => new Set(x);
    expect(jaccard(s("a", "b"), s("b", "c"))).toBeCloseTo(1 / 3);
    expect(jaccard(s(), s())).toBe(1);
    expect(jaccard(s("a"), s())).toBe(0);
    expect(bestJaccard(s("a", "b"), [s("a"), s("a", "b", "c"), s("x")])).toBeCloseTo(2 / 3);
    expect(precisionAgainst(s("a", "b", "z"), [s("a"), s("b", "c")])).toBeCloseTo(2 / 3);
    expect(precisionAgainst(s(), [s("a")])).toBe(1);
  });

  it("a hire's function is its department, else the one its role title names", () => {
    expect(functionOf({ department: "legal", role: "Chief Technology Officer" })).toBe("legal");
    expect(functionOf({ department: null, role: "Chief Technology Officer" })).toBe("engineering");
    expect(functionOf({ department: null, role: "VP Sales" })).toBe("sales");
    expect(functionOf({ department: null, role: "General Counsel" })).toBe("legal");
    expect(functionOf({ department: null, role: "Chief Happiness Officer" })).toBe(
      "role:chief happiness officer",
    );
  });
});
