// An OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp), reached by Pi: its base URL is required,
// a key is optional (config.apiKeyEnv), and it routes the models it declares with their windows.
import { configuredBaseUrl, type ConnectorDriver, keyEnvFor } from "./driver.js";

export const openaiCompatibleDriver: ConnectorDriver<"openai-compatible"> = {
  kind: "openai-compatible",
  label: "OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp)",
  defaultModels: [],
  harness: "pi",
  budget: "before-each-call",
  providers: () => ["openai-compatible"],
  declaresModels: () => true,
  endpoint: (connector) => configuredBaseUrl(connector)?.replace(/\/+$/, ""),
  wire: "openai-chat",
  chatTokenLimit: "max_tokens",
  settingsProblem(connector) {
    const baseUrl = connector.config["baseUrl"];
    return typeof baseUrl === "string" && /^https?:\/\//.test(baseUrl)
      ? undefined
      : "config.baseUrl (http(s) URL of the endpoint) is not set";
  },
  async createSession(input, { config, env, pi, wrap }) {
    const [{ PiAgent }, { streamSimple }] = await Promise.all([
      import("@cadre/core/sessions"),
      import("@mariozechner/pi-ai"),
    ]);
    const keyEnv = keyEnvFor(openaiCompatibleDriver, input.connector);
    const baseUrl = String(input.connector.config["baseUrl"]);
    // Local servers usually need no key; pi-ai's OpenAI client still wants a non-empty one.
    return new PiAgent(config, {
      ...pi,
      route: { baseUrl },
      streamFn: wrap(streamSimple),
      getApiKey: () => (keyEnv && env[keyEnv]) || "not-needed",
    });
  },
};
