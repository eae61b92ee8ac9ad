// How numbers and dates read in the dashboard: one locale for all of them, the browser's (Intl with
// no locale named), so a reader never sees day-first dates beside US-style numbers. Tokens with
// separators, costs in US dollars (the unit prices are declared in), rates in percent.

// Built once: constructing a formatter per call costs more than the formatting itself.
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const usd = (digits: number) =>
  new Intl.NumberFormat(undefined, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
const cents = usd(2);
const fractions = usd(5);
const zero = usd(0);
const percents = [0, 1, 2].map(
  (digits) =>
    new Intl.NumberFormat(undefined, {
      style: "percent",
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }),
);
const time = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "medium" });
const decimal1 = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatTokens(n: number): string {
  return integer.format(n);
}

/** A count or size in the reader's locale (no unit). */
export function formatNumber(n: number): string {
  return integer.format(n);
}

/** USD; a cost the registry cannot price is "unknown", never 0. */
export function formatCost(amount: number | null): string {
  if (amount === null) return "unknown";
  if (amount === 0) return zero.format(0);
  return amount < 0.01 ? fractions.format(amount) : cents.format(amount);
}

export function formatPercent(ratio: number | null, digits = 1): string {
  if (ratio === null) return "—";
  const f = percents[digits];
  return f ? f.format(ratio) : `${decimal1.format(ratio * 100)}%`;
}

// Budget periods start at 00:00 UTC: their day is read in UTC, so no time zone moves it a day back.
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

/** A day (a period's start, a UTC day), e.g. "Dec 1, 2026" in en-US. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : day.format(d);
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : time.format(d);
}

/** Decimal units, as core states its byte limits (32 MB = 32,000,000 bytes). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${integer.format(n)} B`;
  if (n < 1_000_000) return `${decimal1.format(n / 1000)} KB`;
  return `${decimal1.format(n / 1_000_000)} MB`;
}
