// User-defined models for OpenAI-compatible endpoints (Ollama, vLLM, llama.cpp…), MC-6. They come
// from the `models` array of `cadre.config.json` in the data directory and from the CADRE_MODELS
// environment variable (a JSON array of the same entries). Each entry is validated strictly and
// registered through the same function as everything else, so aliases are refused here too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UserInputError } from "../errors.js";
import type { ModelInfo } from "../types.js";
import { registerCompatibleModel } from "./registry.js";

export const CONFIG_FILE = "cadre.config.json";
export const MODELS_ENV = "CADRE_MODELS";

const ENTRY_FIELDS = ["id", "contextWindow", "maxOutput", "price"];
const PRICE_FIELDS = ["input", "output", "cacheRead", "cacheWrite"] as const;

function positiveInteger(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new UserInputError(
      `${where} must be a positive whole number of tokens (got ${JSON.stringify(value)})`,
    );
  return value;
}

function parsePrice(value: unknown, where: string): ModelInfo["price"] {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UserInputError(
      `${where} must be an object with ${PRICE_FIELDS.join(", ")} (USD per million tokens)`,
    );
  const raw = value as Record<string, unknown>;
  const unknown = Object.keys(raw).filter((k) => !(PRICE_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0)
    throw new UserInputError(
      `${where} has unknown field(s) ${unknown.join(", ")}; allowed: ${PRICE_FIELDS.join(", ")}`,
    );
  const price = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const field of PRICE_FIELDS) {
    const v = raw[field] ?? 0;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
      throw new UserInputError(`${where}.${field} must be a number ≥ 0 (USD per million tokens)`);
    price[field] = v;
  }
  return price;
}

/** Validates a list of model entries; `source` names where they came from in error messages. */
export function parseUserModels(
  value: unknown,
  source: string,
): Array<Parameters<typeof registerCompatibleModel>[0]> {
  if (!Array.isArray(value))
    throw new UserInputError(
      `${source}: models must be a JSON array of { id, contextWindow, maxOutput, price? }`,
    );
  return value.map((entry, i) => {
    const where = `${source}: models[${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      throw new UserInputError(`${where} must be an object { id, contextWindow, maxOutput, price? }`);
    const raw = entry as Record<string, unknown>;
    const unknown = Object.keys(raw).filter((k) => !ENTRY_FIELDS.includes(k));
    if (unknown.length > 0)
      throw new UserInputError(
        `${where} has unknown field(s) ${unknown.join(", ")}; allowed: ${ENTRY_FIELDS.join(", ")}`,
      );
    if (typeof raw["id"] !== "string" || raw["id"].length === 0)
      throw new UserInputError(`${where}.id must be a non-empty string (the model id the endpoint serves)`);
    return {
      id: raw["id"],
      contextWindow: positiveInteger(raw["contextWindow"], `${where}.contextWindow`),
      maxOutput: positiveInteger(raw["maxOutput"], `${where}.maxOutput`),
      ...(raw["price"] !== undefined ? { price: parsePrice(raw["price"], `${where}.price`) } : {}),
    };
  });
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserInputError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads and registers the user's models from `<dataDir>/cadre.config.json` (`{ "models": [...] }`,
 * other top-level keys are left to their owners) and from CADRE_MODELS. Returns what was registered.
 */
export async function loadUserModels(
  options: { dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ModelInfo[]> {
  const entries: Array<Parameters<typeof registerCompatibleModel>[0]> = [];
  if (options.dataDir) {
    const path = join(options.dataDir, CONFIG_FILE);
    let text: string | undefined;
    try {
      // Sync: every command reads this small file as it starts, and `node:fs/promises` would load
      // Node's promise file API (and what it pulls in) for that one read.
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (text !== undefined) {
      const config = parseJson(text, path);
      if (typeof config !== "object" || config === null || Array.isArray(config))
        throw new UserInputError(`${path} must hold a JSON object`);
      const models = (config as Record<string, unknown>)["models"];
      if (models !== undefined) entries.push(...parseUserModels(models, path));
    }
  }
  const fromEnv = (options.env ?? process.env)[MODELS_ENV];
  if (fromEnv) entries.push(...parseUserModels(parseJson(fromEnv, MODELS_ENV), MODELS_ENV));
  return entries.map((entry) => registerCompatibleModel(entry));
}
