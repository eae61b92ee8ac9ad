// A company's own prices (negotiated or local models), from its settings: they win over the table's.
import type { PriceEntry } from "@cadre/core";
import type { CompanyRow } from "@cadre/store";

export function companyPrices(company: Pick<CompanyRow, "settings">): PriceEntry[] {
  return (company.settings.prices ?? []).map((p) => ({ ...p, source: "company" as const }));
}
