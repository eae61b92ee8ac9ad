// Maps a registry entry (plus a connector's route) to the pi-ai Model object Pi's loop needs.
import { getModels, type Model } from "@mariozechner/pi-ai";
import { InternalError } from "../../errors.js";
import { catalogueIdOf } from "../../models/registry.js";
import type { ModelInfo } from "../../types.js";

import { OFFLINE_API, OFFLINE_PROVIDER } from "./constants.js";

export { OFFLINE_API, OFFLINE_PROVIDER };

export interface PiRoute {
  /**
   * Base URL for an OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server…), or a gateway in
   * front of the Anthropic or OpenAI API (replacing the catalogue's api.anthropic.com / api.openai.com).
   */
  baseUrl?: string;
}

export function toPiModel(info: ModelInfo, route: PiRoute = {}): Model<any> {
  // pi-ai wants a number per counter; Cadre's own cost never reads it (usage/cost.ts prices calls).
  const cost = info.price ? { ...info.price } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  switch (info.provider) {
    case "offline":
      return {
        id: info.id,
        name: `${info.id} (offline)`,
        api: OFFLINE_API,
        provider: OFFLINE_PROVIDER,
        baseUrl: "offline://",
        reasoning: false,
        input: ["text"],
        cost,
        contextWindow: info.contextWindow,
        maxTokens: info.maxOutput,
      };
    case "anthropic":
    case "openai": {
      // Dated OpenAI ids route through the catalogue entry of their family (MC-6), sent as dated.
      const catalogueId = catalogueIdOf(info.id);
      const model = getModels(info.provider).find((m) => m.id === catalogueId);
      if (!model)
        throw new InternalError(`model ${info.id} is in the registry but pi-ai has no route for it`);
      const routed = route.baseUrl ? { ...model, baseUrl: route.baseUrl } : model;
      return catalogueId === info.id ? routed : { ...routed, id: info.id };
    }
    case "openai-compatible":
      if (!route.baseUrl)
        throw new InternalError(`model ${info.id} needs a base URL (openai-compatible connector)`);
      return {
        id: info.id,
        name: info.id,
        api: "openai-completions",
        provider: "openai-compatible",
        baseUrl: route.baseUrl,
        reasoning: false,
        input: ["text"],
        cost,
        contextWindow: info.contextWindow,
        maxTokens: info.maxOutput,
      };
  }
}
