// The model registry (MC-6): routing only ever uses explicit model ids listed here. Context windows
// and prices come from pi-ai's generated catalogue for the vendor models (vendor-catalogue.ts, held
// equal to it by its test), so there is one source for them; which ids are explicit (dated where the vendor publishes a dated id) is our decision, in
// code. Every entry point where a model id comes in (connector enabledModels, hire_agent, HTTP, CLI,
// config) goes through `resolveModel` or `modelIdProblem`, so an alias is refused the same way
// everywhere, with the explicit ids listed.
import { UserInputError } from "../errors.js";
import type { ModelInfo, ModelPrice } from "../types.js";
import { VENDOR_CATALOGUE } from "./vendor-catalogue.js";

export const OFFLINE_MODEL_ID = "offline-scripted-1";
/** The offline model with a smaller window: a model switch to it rehearses MC-13 (not enabled by default). */
export const OFFLINE_SMALL_MODEL_ID = "offline-scripted-small-1";

const OFFLINE_MODEL: ModelInfo = {
  id: OFFLINE_MODEL_ID,
  provider: "offline",
  contextWindow: 128_000,
  maxOutput: 16_384,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

/**
 * Explicit ids we route to, each with the pi-ai catalogue entry that carries its window, prices and
 * route (the catalogue lists OpenAI models by their undated alias). Undated ids appear only where the
 * vendor publishes no dated id (Anthropic's 4.6+ models).
 */
const EXPLICIT_IDS: Record<
  "anthropic" | "openai",
  ReadonlyArray<readonly [id: string, catalogueId: string]>
> = {
  anthropic: [
    ["claude-opus-4-7", "claude-opus-4-7"],
    ["claude-opus-4-6", "claude-opus-4-6"],
    ["claude-sonnet-4-6", "claude-sonnet-4-6"],
    ["claude-opus-4-5-20251101", "claude-opus-4-5-20251101"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"],
    ["claude-haiku-4-5-20251001", "claude-haiku-4-5-20251001"],
    ["claude-opus-4-1-20250805", "claude-opus-4-1-20250805"],
    ["claude-opus-4-20250514", "claude-opus-4-20250514"],
    ["claude-sonnet-4-20250514", "claude-sonnet-4-20250514"],
  ],
  openai: [
    ["gpt-5.5-2026-04-23", "gpt-5.5"],
    ["gpt-5.4-2026-03-05", "gpt-5.4"],
    ["gpt-5.4-mini-2026-03-17", "gpt-5.4-mini"],
    ["gpt-5.4-nano-2026-03-17", "gpt-5.4-nano"],
    ["gpt-5.2-2025-12-11", "gpt-5.2"],
    ["gpt-5.1-2025-11-13", "gpt-5.1"],
    ["gpt-5-2025-08-07", "gpt-5"],
    ["gpt-5-mini-2025-08-07", "gpt-5-mini"],
    ["gpt-5-nano-2025-08-07", "gpt-5-nano"],
    ["gpt-4.1-2025-04-14", "gpt-4.1"],
    ["gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"],
    ["gpt-4o-2024-11-20", "gpt-4o-2024-11-20"],
    ["o3-2025-04-16", "o3"],
    ["o4-mini-2025-04-16", "o4-mini"],
  ],
};

/** Family words that never route; each maps to the explicit ids it could mean. */
const FAMILY_WORDS: ReadonlyArray<readonly [RegExp, (id: string) => boolean]> = [
  [/^(claude-)?opus$/i, (id) => id.startsWith("claude-opus-")],
  [/^(claude-)?sonnet$/i, (id) => id.startsWith("claude-sonnet-")],
  [/^(claude-)?haiku$/i, (id) => id.startsWith("claude-haiku-")],
  [/^claude$/i, (id) => id.startsWith("claude-")],
  [/^(gpt|chatgpt|openai)$/i, (id) => id.startsWith("gpt-")],
];
const LATEST = /-latest$/i;
const DATE_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

const registry = new Map<string, ModelInfo>();
const catalogueIds = new Map<string, string>();

function loadVendorModels(): void {
  for (const provider of ["anthropic", "openai"] as const) {
    for (const [id, catalogueId] of EXPLICIT_IDS[provider]) {
      const m = VENDOR_CATALOGUE[provider][catalogueId];
      if (!m) continue; // pi-ai dropped a model: it simply is not routable, never guessed.
      registry.set(id, {
        id,
        provider,
        contextWindow: m.contextWindow,
        maxOutput: m.maxTokens,
        price: {
          input: m.cost.input,
          output: m.cost.output,
          cacheRead: m.cost.cacheRead,
          cacheWrite: m.cost.cacheWrite,
        },
      });
      catalogueIds.set(id, catalogueId);
    }
  }
  registry.set(OFFLINE_MODEL_ID, OFFLINE_MODEL);
  registry.set(OFFLINE_SMALL_MODEL_ID, {
    ...OFFLINE_MODEL,
    id: OFFLINE_SMALL_MODEL_ID,
    contextWindow: 32_000,
    maxOutput: 8_192,
  });
}
loadVendorModels();

/** The pi-ai catalogue id behind an explicit id (its route); the id itself for models outside the catalogue. */
export function catalogueIdOf(id: string): string {
  return catalogueIds.get(id) ?? id;
}

export function listModels(provider?: ModelInfo["provider"]): ModelInfo[] {
  return [...registry.values()].filter((m) => !provider || m.provider === provider);
}

export function explicitModelIds(): string[] {
  return [...registry.keys()];
}

/** The dated forms of an undated id, e.g. claude-sonnet-4-5 → claude-sonnet-4-5-20250929. */
function datedFormsOf(id: string): string[] {
  return [...registry.keys()].filter((known) => {
    const date = DATE_SUFFIX.exec(known);
    return date !== null && known.slice(0, date.index) === id;
  });
}

/** The explicit ids an alias could mean, for the error message; never empty. */
function candidatesFor(alias: string): string[] {
  const dated = datedFormsOf(alias);
  if (dated.length > 0) return dated;
  const family = FAMILY_WORDS.find(([pattern]) => pattern.test(alias));
  const base = LATEST.test(alias) ? alias.replace(LATEST, "") : alias;
  const matches = family
    ? explicitModelIds().filter(family[1])
    : explicitModelIds().filter((id) => id.startsWith(base));
  return matches.length > 0 ? matches : explicitModelIds();
}

export interface ModelIdProblem {
  kind: "alias" | "unknown";
  /** A sentence for the caller, listing the explicit ids to use instead. */
  message: string;
  /** The explicit ids the caller probably meant (for an alias), else every explicit id. */
  candidates: string[];
}

/** Why `id` cannot be routed (a bare alias, or not in the registry), or undefined when it is explicit and known. */
export function modelIdProblem(id: string): ModelIdProblem | undefined {
  const isAlias =
    FAMILY_WORDS.some(([pattern]) => pattern.test(id)) ||
    LATEST.test(id) ||
    (!registry.has(id) && datedFormsOf(id).length > 0);
  if (isAlias) {
    const candidates = candidatesFor(id);
    return {
      kind: "alias",
      message: `model "${id}" is an alias; Cadre routes only explicit model ids. Use one of: ${candidates.join(", ")}`,
      candidates,
    };
  }
  if (!registry.has(id))
    return {
      kind: "unknown",
      message: `unknown model "${id}". Known explicit ids: ${explicitModelIds().join(", ")}`,
      candidates: explicitModelIds(),
    };
  return undefined;
}

/** Throws when `id` is a bare alias (a family word, "-latest", or an undated id whose dated form exists). */
export function assertNotAlias(id: string): void {
  const problem = modelIdProblem(id);
  if (problem?.kind === "alias") throw new UserInputError(problem.message, { model: "alias" });
}

/** The registry entry for an explicit id; aliases and unknown ids are refused with the explicit ids listed. */
export function resolveModel(id: string): ModelInfo {
  const problem = modelIdProblem(id);
  if (problem) throw new UserInputError(problem.message, { model: problem.kind });
  return registry.get(id) as ModelInfo;
}

/** The entry for `id` when it is registered, else undefined; for reports over stored data. */
export function findModel(id: string): ModelInfo | undefined {
  return registry.get(id);
}

const LOCAL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;
const LOCAL_EXAMPLES =
  "qwen2.5:14b-instruct-q4_K_M, llama3.1:8b, llama-3.1-8b-instruct, Qwen/Qwen2.5-14B-Instruct";

/**
 * Why `id` cannot be declared as a model an endpoint serves (MC-6), or undefined. Only what floats
 * by its own spelling is refused here: a `latest` tag or segment, an empty tag, a vendor alias the
 * registry knows. Anything else — a deployment name, `gpt-5-codex`, `deepseek-v3` — is judged by
 * the endpoint: it is accepted when the endpoint lists it (connector-served.ts), and what the
 * endpoint serves under it is watched on every call (a changed served model is a drift).
 */
export function localModelIdProblem(id: string): string | undefined {
  if (!LOCAL_ID.test(id))
    return `model id "${id}" is not valid: use letters, digits and . _ : / @ + - (at most 128 characters)`;
  const tag = id.includes(":") ? id.slice(id.lastIndexOf(":") + 1) : undefined;
  if (tag === "" || id.split(/[-_:/.@]/).some((part) => part.toLowerCase() === "latest"))
    return `model id "${id}" is a floating tag (latest): it names whatever was pulled last. Use the explicit id the endpoint lists, e.g. ${LOCAL_EXAMPLES}`;
  const aliasProblem = modelIdProblem(id);
  if (aliasProblem?.kind === "alias") return aliasProblem.message;
  return undefined;
}

export type CompatibleModelInput = Omit<ModelInfo, "provider" | "price"> & { price?: ModelPrice | null };

/**
 * Adds a model for an OpenAI-compatible endpoint (from config, see user-models.ts). Aliases are
 * refused here too; an id already routed to a vendor cannot be taken over; registering the same
 * definition twice is a no-op.
 */
export function registerCompatibleModel(info: CompatibleModelInput): ModelInfo {
  const existing = registry.get(info.id);
  if (existing && existing.provider !== "openai-compatible")
    throw new UserInputError(
      `model "${info.id}" is already routed to ${existing.provider}; choose another id for the compatible endpoint`,
      { model: "taken" },
    );
  const problem = localModelIdProblem(info.id);
  if (problem) throw new UserInputError(problem, { model: "explicit id, no latest tag, no alias" });
  const entry: ModelInfo = {
    id: info.id,
    provider: "openai-compatible",
    contextWindow: info.contextWindow,
    maxOutput: info.maxOutput,
    // A local model's price is unknown unless declared: its cost is then unknown, never 0.
    price: info.price ?? null,
  };
  if (existing) {
    if (JSON.stringify(existing) !== JSON.stringify(entry))
      throw new UserInputError(`model "${info.id}" is already registered with a different definition`, {
        model: "conflict",
      });
    return existing;
  }
  registry.set(info.id, entry);
  return entry;
}
