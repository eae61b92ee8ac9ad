// The cache chart's data: hit rate per model call and for the run so far, the server's formula.
import { describe, expect, it } from "vitest";
import { cacheSeries, hitRate, sortByTotal, type UsageRow } from "./usage-series.js";

const u = (input: number, cacheRead: number, cacheWrite: number) => ({
  input,
  output: 10,
  cacheRead,
  cacheWrite,
});

describe("cache series", () => {
  it("is cache read / (input + cache read + cache write), 0 when nothing was sent", () => {
    expect(hitRate(u(100, 900, 0))).toBe(0.9);
    expect(hitRate(u(0, 0, 0))).toBe(0);
  });

  it("gives each call's rate and the rate of the calls so far, in percent, in uPlot's layout", () => {
    const s = cacheSeries([u(50, 0, 950), u(50, 900, 50), u(100, 900, 0)]);
    expect(s.calls).toEqual([1, 2, 3]);
    expect(s.perCall).toEqual([0, 90, 90]);
    // (0 + 900 + 900) / (1000 + 1000 + 1000)
    expect(s.cumulative).toEqual([0, 45, 60]);
    expect(cacheSeries([])).toEqual({ calls: [], perCall: [], cumulative: [] });
  });

  it("orders usage rows by total tokens, then by name", () => {
    const row = (label: string, total: number): UsageRow => ({
      key: label,
      label,
      detail: "",
      usage: { ...u(0, 0, 0), total, cost: 0, hitRate: 0 },
    });
    expect(sortByTotal([row("b", 5), row("a", 5), row("c", 9)]).map((r) => r.label)).toEqual(["c", "a", "b"]);
  });
});
