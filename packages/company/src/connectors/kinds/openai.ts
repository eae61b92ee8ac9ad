// The OpenAI API (Chat Completions), reached by Pi.
import { vendorApiDriver } from "./vendor-api.js";

export const OPENAI_API = "https://api.openai.com/v1";

export const openaiDriver = vendorApiDriver({
  kind: "openai",
  label: "OpenAI API",
  defaultModels: ["gpt-5-mini-2025-08-07", "gpt-5-2025-08-07"],
  keyEnv: "OPENAI_API_KEY",
  providers: () => ["openai"],
  url: OPENAI_API,
  wire: "openai-chat",
  // OpenAI's own API takes max_completion_tokens (its reasoning models refuse max_tokens).
  chatTokenLimit: "max_completion_tokens",
  liveEval: {
    hint: "set OPENAI_API_KEY (--base-url URL sends it to a gateway instead of api.openai.com)",
    vendorUrl: OPENAI_API,
  },
});
