// The two vendor APIs Pi reaches directly (Anthropic Messages, OpenAI): a key from the environment,
// the registry's explicit ids of the vendor, and optionally a gateway in front of the vendor's own
// endpoint (config.baseUrl).
import type { ConnectorKind } from "@cadre/model";
import { badBaseUrl, configuredBaseUrl, type ConnectorDriver, keyEnvFor } from "./driver.js";

type VendorDriver<K extends ConnectorKind> = Omit<
  ConnectorDriver<K>,
  "harness" | "budget" | "declaresModels" | "endpoint" | "settingsProblem" | "createSession" | "keyEnv"
> & { keyEnv: string; url: string };

/** A Pi-routed vendor API: its key must be set; a configured base URL (a gateway) must be http(s). */
export function vendorApiDriver<K extends ConnectorKind>(spec: VendorDriver<K>): ConnectorDriver<K> {
  const { url, ...rest } = spec;
  const driver: ConnectorDriver<K> = {
    ...rest,
    harness: "pi",
    budget: "before-each-call",
    declaresModels: () => false,
    endpoint: (connector) => (configuredBaseUrl(connector) ?? url).replace(/\/+$/, ""),
    settingsProblem(connector, env) {
      const keyEnv = keyEnvFor(driver, connector) as string;
      return badBaseUrl(connector) ?? (env[keyEnv] ? undefined : `${keyEnv} is not set`);
    },
    async createSession(input, { config, env, pi, wrap }) {
      const [{ PiAgent }, { streamSimple }] = await Promise.all([
        import("@cadre/core/sessions"),
        import("@mariozechner/pi-ai"),
      ]);
      const keyEnv = keyEnvFor(driver, input.connector);
      const baseUrl = configuredBaseUrl(input.connector);
      // streamSimple is PiAgent's default; passed explicitly so a wrapper has something to wrap.
      return new PiAgent(config, {
        ...pi,
        // A gateway in front of the vendor's API, when configured; else the vendor's own endpoint.
        ...(baseUrl !== undefined ? { route: { baseUrl } } : {}),
        streamFn: wrap(streamSimple),
        getApiKey: () => (keyEnv ? env[keyEnv] : undefined),
      });
    },
  };
  return driver;
}
