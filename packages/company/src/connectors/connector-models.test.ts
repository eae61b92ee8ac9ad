// A model declared on a connector (config.models [{ id, contextWindow }]) has no price unless one is
// given: its cost is unknown (null), never $0.
import { costOf, priceAt } from "@cadre/core";
import { expect, it } from "vitest";
import { connectorModelInfo } from "./connector-models.js";

it("prices a declared local model as unknown, and at the company's own price when it sets one", () => {
  const connector = {
    kind: "openai-compatible" as const,
    config: {
      baseUrl: "http://127.0.0.1:11434/v1",
      models: [{ id: "standin-chat-1b", contextWindow: 8192 }],
    },
  };
  const info = connectorModelInfo(connector, "standin-chat-1b");
  expect(info).toMatchObject({ id: "standin-chat-1b", contextWindow: 8192, price: null });
  const usage = { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 };
  expect(costOf(usage, priceAt("standin-chat-1b", "2026-12-01T00:00:00Z"))).toBeNull();
  const own = [
    {
      model: "standin-chat-1b",
      since: "2026-01-01",
      source: "company" as const,
      input: 1,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    },
  ];
  expect(costOf(usage, priceAt("standin-chat-1b", "2026-12-01T00:00:00Z", own))).toBeCloseTo(0.0012);
});
