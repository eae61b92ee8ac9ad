// The registry's copy of the vendor catalogue is pi-ai's: every window, output limit and price the
// registry routes with equals what pi-ai's generated catalogue says for that model.
import { getModels } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { catalogueIdOf, listModels } from "./registry.js";
import { VENDOR_CATALOGUE } from "./vendor-catalogue.js";

describe("the vendor catalogue copy", () => {
  for (const provider of ["anthropic", "openai"] as const) {
    it(`equals pi-ai's catalogue for every ${provider} model it holds`, () => {
      const piAi = new Map(getModels(provider).map((m) => [m.id, m]));
      for (const [id, entry] of Object.entries(VENDOR_CATALOGUE[provider])) {
        const m = piAi.get(id);
        expect(m, `pi-ai's catalogue no longer lists ${provider}/${id}`).toBeDefined();
        expect(entry, `${provider}/${id} differs from pi-ai's catalogue`).toEqual({
          contextWindow: m!.contextWindow,
          maxTokens: m!.maxTokens,
          cost: {
            input: m!.cost.input,
            output: m!.cost.output,
            cacheRead: m!.cost.cacheRead,
            cacheWrite: m!.cost.cacheWrite,
          },
        });
      }
    });
  }

  it("holds every model the registry routes, with the window and prices the registry gives it", () => {
    const vendorModels = listModels().filter((m) => m.provider === "anthropic" || m.provider === "openai");
    expect(vendorModels.length).toBeGreaterThan(20);
    for (const model of vendorModels) {
      const provider = model.provider as "anthropic" | "openai";
      const entry = VENDOR_CATALOGUE[provider][catalogueIdOf(model.id)];
      expect(entry, model.id).toBeDefined();
      expect({ window: model.contextWindow, input: model.price?.input }).toEqual({
        window: entry!.contextWindow,
        input: entry!.cost.input,
      });
    }
  });
});
