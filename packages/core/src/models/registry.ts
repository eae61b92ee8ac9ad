// The model registry (MC-6): routing only ever uses explicit model ids listed here. Context
// windows and prices come from pi-ai's generated catalogue for the vendor models, so there is one
// source for them; which ids are explicit (dated where a dated id exists) is our decision, in code.
import { getModels } from "@mariozechner/pi-ai";
import { UserInputError } from "../errors.js";
import type { ModelInfo } from "../types.js";

export const OFFLINE_MODEL_ID = "offline-scripted-1";

const OFFLINE_MODEL: ModelInfo = {
  id: OFFLINE_MODEL_ID,
  provider: "offline",
  contextWindow: 128_000,
  maxOutput: 16_384,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

/** Explicit ids we route to. Undated ids appear only where the vendor publishes no dated id. */
const EXPLICIT_IDS: Record<"anthropic" | "openai", string[]> = {
  anthropic: [
    "claude-opus-4-7",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-4-5-20251101",
    "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5-20251001",
    "claude-opus-4-1-20250805",
    "claude-sonnet-4-20250514",
  ],
  openai: ["gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5.2", "gpt-5.1", "gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4o-2024-11-20"],
};

/** Family words and undated aliases that must never route; each maps to the explicit ids it could mean. */
const ALIAS_PATTERNS: Array<[RegExp, (id: string) => boolean]> = [
  [/^(opus|sonnet|haiku|claude)$/i, (id) => id.startsWith("claude-")],
  [/^(gpt|gpt-4o|chatgpt|gpt-latest)$/i, (id) => id.startsWith("gpt-")],
  [/-latest$/i, () => true],
];

const registry = new Map<string, ModelInfo>();

function loadVendorModels(): void {
  for (const provider of ["anthropic", "openai"] as const) {
    const catalogue = new Map(getModels(provider).map((m) => [m.id, m]));
    for (const id of EXPLICIT_IDS[provider]) {
      const m = catalogue.get(id);
      if (!m) continue; // pi-ai dropped a model: it simply is not routable, never guessed.
      registry.set(id, {
        id,
        provider,
        contextWindow: m.contextWindow,
        maxOutput: m.maxTokens,
        price: { input: m.cost.input, output: m.cost.output, cacheRead: m.cost.cacheRead, cacheWrite: m.cost.cacheWrite },
      });
    }
  }
  registry.set(OFFLINE_MODEL_ID, OFFLINE_MODEL);
}
loadVendorModels();

/** Adds a model for an OpenAI-compatible endpoint (from config). Aliases are refused here too. */
export function registerCompatibleModel(info: Omit<ModelInfo, "provider" | "price"> & { price?: ModelInfo["price"] }): ModelInfo {
  assertNotAlias(info.id);
  if (!/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/.test(info.id)) {
    throw new UserInputError(`model id "${info.id}" is not valid: use letters, digits and . _ : / - (at most 128 characters)`);
  }
  const entry: ModelInfo = { ...info, provider: "openai-compatible", price: info.price ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  registry.set(info.id, entry);
  return entry;
}

export function listModels(provider?: ModelInfo["provider"]): ModelInfo[] {
  return [...registry.values()].filter((m) => !provider || m.provider === provider);
}

function explicitIdsFor(alias: string): string[] {
  const vendorMatch = [...registry.keys()].filter((id) => id !== alias && (id.startsWith(`${alias}-`) || id.startsWith(alias)));
  if (vendorMatch.length > 0) return vendorMatch;
  for (const [pattern, filter] of ALIAS_PATTERNS) if (pattern.test(alias)) return [...registry.keys()].filter(filter);
  return [];
}

/** Throws when `id` is a bare alias (a family word, "-latest", or an undated id whose dated form exists). */
export function assertNotAlias(id: string): void {
  const isFamilyWord = ALIAS_PATTERNS.some(([pattern]) => pattern.test(id));
  const datedForms = [...registry.keys()].filter((known) => known !== id && known.startsWith(`${id}-`) && /-\d{8}$/.test(known));
  if (isFamilyWord || datedForms.length > 0) {
    const candidates = datedForms.length > 0 ? datedForms : explicitIdsFor(id);
    throw new UserInputError(
      `model "${id}" is an alias; Cadre routes only explicit model ids (MC-6). Use one of: ${candidates.join(", ") || listModels().map((m) => m.id).join(", ")}`,
      { model: "alias" },
    );
  }
}

/** The registry entry for an explicit id; aliases and unknown ids are refused with the explicit ids listed. */
export function resolveModel(id: string): ModelInfo {
  assertNotAlias(id);
  const info = registry.get(id);
  if (!info) {
    throw new UserInputError(`unknown model "${id}". Known explicit ids: ${[...registry.keys()].join(", ")}`, { model: "unknown" });
  }
  return info;
}
