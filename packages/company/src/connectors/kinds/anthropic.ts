// The Anthropic Messages API, reached by Pi.
import { vendorApiDriver } from "./vendor-api.js";

export const ANTHROPIC_API = "https://api.anthropic.com";

export const anthropicDriver = vendorApiDriver({
  kind: "anthropic",
  label: "Anthropic Messages API",
  defaultModels: ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"],
  keyEnv: "ANTHROPIC_API_KEY",
  providers: () => ["anthropic"],
  url: ANTHROPIC_API,
  wire: "anthropic",
  liveEval: {
    hint: "set ANTHROPIC_API_KEY (--base-url URL sends it to a gateway instead of api.anthropic.com)",
    vendorUrl: ANTHROPIC_API,
  },
});
