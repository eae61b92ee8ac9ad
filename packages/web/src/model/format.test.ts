// Every figure and date of the dashboard follows one locale, the reader's: whatever the runtime's
// locale is, the dashboard's text equals Intl's own formatting for it (never a fixed en-GB/en-US).
import { describe, expect, it } from "vitest";
import { formatCost, formatNumber, formatPercent, formatTime, formatTokens } from "./format.js";

const locale = new Intl.NumberFormat().resolvedOptions().locale;

describe("format: one locale, the reader's", () => {
  it("numbers, costs and rates are Intl's for the runtime locale", () => {
    expect(formatTokens(1234567)).toBe(new Intl.NumberFormat(locale).format(1234567));
    expect(formatNumber(128000)).toBe(new Intl.NumberFormat(locale).format(128000));
    const usd = (n: number, d: number) =>
      new Intl.NumberFormat(locale, {
        style: "currency",
        currency: "USD",
        minimumFractionDigits: d,
        maximumFractionDigits: d,
      }).format(n);
    expect(formatCost(12.5)).toBe(usd(12.5, 2));
    expect(formatCost(0.00012)).toBe(usd(0.00012, 5));
    expect(formatCost(0)).toBe(usd(0, 0));
    expect(formatCost(null)).toBe("unknown");
    expect(formatPercent(0.1234)).toBe(
      new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 1 }).format(0.1234),
    );
    expect(formatPercent(null)).toBe("—");
  });

  it("dates are the same locale's, not day-first by decree", () => {
    const at = "2026-03-04T05:06:07.000Z";
    expect(formatTime(at)).toBe(
      new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" }).format(new Date(at)),
    );
    expect(formatTime("not a time")).toBe("not a time");
  });

  it("in en-US a cost reads $12.50 and a rate 12.3%", () => {
    // The runtime the tests run in is en-US unless told otherwise; skip elsewhere rather than lie.
    if (!locale.startsWith("en-US")) return;
    expect(formatCost(12.5)).toBe("$12.50");
    expect(formatPercent(0.1234)).toBe("12.3%");
    expect(formatTokens(1234567)).toBe("1,234,567");
  });
});
