// The vendor models' windows and prices, copied from pi-ai's generated catalogue for the catalogue ids
// the registry routes (registry.ts, EXPLICIT_IDS), so that reading the registry does not load pi-ai
// (its import is most of a read-only command's start). Not a second source: vendor-catalogue.test.ts
// holds every entry equal to pi-ai's own, so an upgrade of pi-ai that changes one fails there and
// this table is updated from it.

export interface CatalogueEntry {
  contextWindow: number;
  maxTokens: number;
  /** USD per million tokens. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

const entry = (
  contextWindow: number,
  maxTokens: number,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number,
): CatalogueEntry => ({ contextWindow, maxTokens, cost: { input, output, cacheRead, cacheWrite } });

/** Per provider, by pi-ai catalogue id: [contextWindow, maxTokens, input, output, cacheRead, cacheWrite]. */
export const VENDOR_CATALOGUE: Record<"anthropic" | "openai", Readonly<Record<string, CatalogueEntry>>> = {
  anthropic: {
    "claude-opus-4-7": entry(1000000, 128000, 5, 25, 0.5, 6.25),
    "claude-opus-4-6": entry(1000000, 128000, 5, 25, 0.5, 6.25),
    "claude-sonnet-4-6": entry(1000000, 64000, 3, 15, 0.3, 3.75),
    "claude-opus-4-5-20251101": entry(200000, 64000, 5, 25, 0.5, 6.25),
    "claude-sonnet-4-5-20250929": entry(200000, 64000, 3, 15, 0.3, 3.75),
    "claude-haiku-4-5-20251001": entry(200000, 64000, 1, 5, 0.1, 1.25),
    "claude-opus-4-1-20250805": entry(200000, 32000, 15, 75, 1.5, 18.75),
    "claude-opus-4-20250514": entry(200000, 32000, 15, 75, 1.5, 18.75),
    "claude-sonnet-4-20250514": entry(200000, 64000, 3, 15, 0.3, 3.75),
  },
  openai: {
    "gpt-5.5": entry(272000, 128000, 5, 30, 0.5, 0),
    "gpt-5.4": entry(272000, 128000, 2.5, 15, 0.25, 0),
    "gpt-5.4-mini": entry(400000, 128000, 0.75, 4.5, 0.075, 0),
    "gpt-5.4-nano": entry(400000, 128000, 0.2, 1.25, 0.02, 0),
    "gpt-5.2": entry(400000, 128000, 1.75, 14, 0.175, 0),
    "gpt-5.1": entry(400000, 128000, 1.25, 10, 0.13, 0),
    "gpt-5": entry(400000, 128000, 1.25, 10, 0.125, 0),
    "gpt-5-mini": entry(400000, 128000, 0.25, 2, 0.025, 0),
    "gpt-5-nano": entry(400000, 128000, 0.05, 0.4, 0.005, 0),
    "gpt-4.1": entry(1047576, 32768, 2, 8, 0.5, 0),
    "gpt-4.1-mini": entry(1047576, 32768, 0.4, 1.6, 0.1, 0),
    "gpt-4o-2024-11-20": entry(128000, 16384, 2.5, 10, 1.25, 0),
    o3: entry(200000, 100000, 2, 8, 0.5, 0),
    "o4-mini": entry(200000, 100000, 1.1, 4.4, 0.28, 0),
  },
};
