// The price table: USD per million tokens per explicit model id, dated, so that a price
// change is a new entry and a call is priced at the price in force when it was made. The vendor
// models' entries come from the registry (pi-ai's catalogue of the pinned version); the offline
// model costs exactly 0 (it says so); a company may add its own entries (negotiated or local
// prices), which win over the table's. A model with no entry has no price: its cost is null,
// shown as "unknown", never 0.
import { findModel } from "./registry.js";
import type { ModelPrice, Usage } from "../types.js";
import { usageCost } from "../usage/accounting.js";

export interface PriceEntry extends ModelPrice {
  model: string;
  /** ISO date (YYYY-MM-DD) from which the price applies. */
  since: string;
  source: "catalogue" | "offline" | "company";
}

/** The date the registry's catalogue prices apply from (the catalogue states no date of its own). */
export const CATALOGUE_PRICES_SINCE = "2025-01-01";

/** Later price changes of registry models, newest last; none yet. */
const PRICE_CHANGES: readonly PriceEntry[] = [];

/** The price of `model` in force at `at` (ISO), the company's own entries first; null when unknown. */
export function priceAt(
  model: string,
  at: string,
  companyPrices: readonly PriceEntry[] = [],
): PriceEntry | null {
  const day = at.slice(0, 10);
  const pick = (entries: readonly PriceEntry[]) =>
    entries
      .filter((e) => e.model === model && e.since <= day)
      .sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0))
      .at(-1);
  const own = pick(companyPrices);
  if (own) return own;
  const changed = pick(PRICE_CHANGES);
  if (changed) return changed;
  const info = findModel(model);
  if (!info?.price) return null;
  return {
    model,
    since: CATALOGUE_PRICES_SINCE,
    source: info.provider === "offline" ? "offline" : "catalogue",
    ...info.price,
  };
}

/** USD for a call's usage at a price; null when the price is unknown. */
export function costOf(usage: Readonly<Usage>, price: ModelPrice | null): number | null {
  return price ? usageCost(usage, price) : null;
}
