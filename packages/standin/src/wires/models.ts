// GET /v1/models and /v1/models/{id}, in the format of whichever vendor's client asks (Anthropic's
// clients send `anthropic-version` / `x-api-key`). The list is the server's `models` option, else
// one stand-in id; any id is served unless `models` was given.
import { STANDIN_MODEL_OWNER } from "../announce.js";

const CREATED = "2025-01-01T00:00:00Z";
export const DEFAULT_MODELS = ["standin-model"];

function anthropicModel(id: string) {
  return { type: "model", id, display_name: `${id} (stand-in)`, created_at: CREATED };
}

function openaiModel(id: string) {
  return { id, object: "model", created: Date.parse(CREATED) / 1000, owned_by: STANDIN_MODEL_OWNER };
}

/** The list or one model; null for an id the server does not serve. */
export function modelsList(path: string, anthropic: boolean, models: readonly string[] | undefined): unknown {
  const ids = models ?? DEFAULT_MODELS;
  const one = /\/models\/([^/]+)$/.exec(path)?.[1];
  if (one !== undefined) {
    const id = decodeURIComponent(one);
    if (models && !models.includes(id)) return null;
    return anthropic ? anthropicModel(id) : openaiModel(id);
  }
  if (!anthropic) return { object: "list", data: ids.map(openaiModel) };
  return {
    data: ids.map(anthropicModel),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
  };
}
