// How numbers read in the dashboard: tokens with separators, costs in dollars, rates in percent.

const tokens = new Intl.NumberFormat("en-US");

export function formatTokens(n: number): string {
  return tokens.format(n);
}

/** USD; a cost the registry cannot price is "unknown", never 0. */
export function formatCost(usd: number | null): string {
  if (usd === null) return "unknown";
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(5)}` : `$${usd.toFixed(2)}`;
}

export function formatPercent(ratio: number | null, digits = 1): string {
  return ratio === null ? "—" : `${(ratio * 100).toFixed(digits)}%`;
}

// Built once: constructing a formatter per call costs more than the formatting itself.
const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "short", timeStyle: "medium" });

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : time.format(d);
}

/** Decimal units, as core states its byte limits (32 MB = 32,000,000 bytes). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}
