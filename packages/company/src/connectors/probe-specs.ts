// Which probes a connector has, and what each one asks. Network connectors (anthropic, openai,
// openai-compatible, codex with a baseUrl) ask their endpoint for its model list — a cheap request
// that needs the key and costs no tokens; harnesses (claude-code, codex) look for their executable
// and credentials. Nothing here runs until a ProbeBook refreshes it, off the request path.
import { createHash } from "node:crypto";
import type { ConnectorKind } from "@cadre/model";
import type { ConnectorRow } from "@cadre/store";
import { scrubSecrets } from "./credential-shapes.js";
import { driverOf, type Wire } from "./kinds/index.js";
import type { ProbeOutcome, ProbeSpec } from "./probe-cache.js";
import { servedFingerprints } from "./model-fingerprints.js";

type ConnectorLike = Pick<ConnectorRow, "kind" | "config" | "enabledModels">;

const ANTHROPIC_VERSION = "2023-06-01";

/** The endpoint a network connector talks to, without a trailing slash; undefined for the others. */
export function endpointOf(connector: Pick<ConnectorRow, "kind" | "config">): string | undefined {
  return driverOf(connector.kind).endpoint(connector);
}

/** The wire a network connector's endpoint speaks. */
export function wireOf(kind: ConnectorKind): Wire | undefined {
  return driverOf(kind).wire;
}

/** The headers a request to the endpoint carries: the key (read from the environment) in its wire's form. */
export function endpointHeaders(wire: Wire | undefined, key: string | undefined): Record<string, string> {
  if (wire === "anthropic")
    return { "anthropic-version": ANTHROPIC_VERSION, ...(key ? { "x-api-key": key } : {}) };
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** The URL of the endpoint's model list. */
export function modelsUrl(wire: Wire | undefined, endpoint: string): string {
  return wire === "anthropic" ? `${endpoint}/v1/models` : `${endpoint}/models`;
}

const fingerprint = (value: string | undefined) =>
  value ? createHash("sha256").update(value).digest("hex").slice(0, 16) : "none";

/** Why a request never got an answer, in words: "connection refused (ECONNREFUSED)". */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    ECONNRESET: "connection reset",
    ETIMEDOUT: "connection timed out",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    UND_ERR_CONNECT_TIMEOUT: "connection timed out",
    UND_ERR_SOCKET: "connection closed",
  };
  if (code) return `${words[code] ?? "request failed"} (${code})`;
  if ((error as { name?: string } | undefined)?.name === "AbortError") return "no answer in time";
  const message = typeof cause?.message === "string" ? cause.message : (error as Error | undefined)?.message;
  return message ?? String(error);
}

/** The entries of an OpenAI or Anthropic model list, or undefined when the body is not one. */
function listing(body: string): unknown[] | undefined {
  try {
    const data = (JSON.parse(body) as { data?: unknown }).data;
    return Array.isArray(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The model ids a model list names. */
function listedModels(data: readonly unknown[]): string[] {
  return data
    .map((m) => (m as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === "string");
}

/** A short, secret-free extract of an error body (the vendor's message when it has one). */
export function errorExtract(body: string, key: string | undefined): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === "string"
        ? parsed.error
        : typeof parsed.error?.message === "string"
          ? parsed.error.message
          : typeof parsed.message === "string"
            ? parsed.message
            : undefined;
    if (message) text = message;
  } catch {
    // not JSON: the text itself
  }
  const clean = scrubSecrets(text.replace(/\s+/g, " ").trim(), key ? [key] : []);
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

async function askModelList(
  connector: ConnectorLike,
  url: string,
  keyEnv: string | undefined,
  key: string | undefined,
  signal: AbortSignal,
): Promise<ProbeOutcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: endpointHeaders(wireOf(connector.kind), key),
      signal,
      redirect: "manual",
    });
  } catch (error) {
    return { ok: false, error: `GET ${url}: ${networkReason(error)}` };
  }
  const body = await response.text().catch(() => "");
  if (response.ok) {
    const data = listing(body);
    if (!data) return { ok: true };
    const listed = listedModels(data);
    // What the endpoint offers for each model (Ollama's digest, the list's metadata): a wake compares
    // it with what was kept when the model was declared, from here (MC-6).
    const endpoint = url.replace(/\/(v1\/)?models$/, "");
    const fingerprints = await servedFingerprints(
      connector,
      endpoint,
      endpointHeaders(wireOf(connector.kind), key),
      data,
      signal,
    );
    const absent = connector.enabledModels.filter((m) => !listed.includes(m));
    // The endpoint answered, so it is ready; but an enabled model it does not list is most likely
    // misspelt, and a wake on it fails unless the endpoint serves models it does not list (some
    // proxies do; vendor lists may be paged): said plainly, with what it does list.
    const shown = `${listed.slice(0, 10).join(", ")}${listed.length > 10 ? ", …" : ""}`;
    return {
      ok: true,
      ...(Object.keys(fingerprints).length > 0 ? { fingerprints } : {}),
      detail:
        absent.length > 0
          ? `but it lists ${listed.length} model(s) (${shown}) and not ${absent.join(", ")}: check the id's spelling — a wake on it fails unless the endpoint serves it anyway`
          : `lists ${listed.length} model(s)`,
    };
  }
  // A Responses-only server (what Codex talks to) may have no model list: a minimal request to it
  // says whether it answers (a token or so of the first enabled model), and which model served it.
  if (response.status === 404 && wireOf(connector.kind) === "openai-responses")
    return askResponses(connector, url.replace(/\/models$/, "/responses"), key, signal);
  if (response.status === 401 || response.status === 403)
    return {
      ok: false,
      error: `GET ${url} answered ${response.status}: the key ${keyEnv ? `in ${keyEnv} ` : ""}was refused${keyEnv ? "" : " (none is sent: set config.apiKeyEnv to the variable holding it)"}`,
    };
  const hint =
    response.status === 404 && wireOf(connector.kind) !== "anthropic"
      ? " (is the base URL right? an OpenAI-compatible one usually ends in /v1)"
      : "";
  const extract = errorExtract(body, key);
  return {
    ok: false,
    error: `GET ${url} answered ${response.status}${extract ? `: ${extract}` : ""}${hint}`,
  };
}

async function askResponses(
  connector: ConnectorLike,
  url: string,
  key: string | undefined,
  signal: AbortSignal,
): Promise<ProbeOutcome> {
  const model = connector.enabledModels[0];
  if (model === undefined) return { ok: false, error: "no enabled model to ask the endpoint with" };
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...endpointHeaders("openai-responses", key) },
      body: JSON.stringify({ model, input: "Reply with the single word: ready", max_output_tokens: 16 }),
      signal,
      redirect: "manual",
    });
  } catch (error) {
    return { ok: false, error: `no model list; POST ${url}: ${networkReason(error)}` };
  }
  const body = await response.text().catch(() => "");
  if (!response.ok) {
    const extract = errorExtract(body, key);
    return {
      ok: false,
      error: `no model list; POST ${url} answered ${response.status}${extract ? `: ${extract}` : ""}`,
    };
  }
  let served: unknown;
  try {
    served = (JSON.parse(body) as { model?: unknown }).model;
  } catch {
    served = undefined;
  }
  const drift =
    typeof served === "string" && served !== model ? `, but it was served by "${served}" (a drift)` : "";
  return { ok: true, detail: `has no model list; a minimal request for ${model} answered${drift}` };
}

/** The endpoint probe of a network connector whose settings are complete; undefined otherwise. */
export function endpointProbe(
  connector: ConnectorLike,
  keyEnv: string | undefined,
  env: NodeJS.ProcessEnv,
): ProbeSpec | undefined {
  const endpoint = endpointOf(connector);
  if (!endpoint || !/^https?:\/\//.test(endpoint)) return undefined;
  const key = keyEnv ? env[keyEnv] : undefined;
  const url = modelsUrl(wireOf(connector.kind), endpoint);
  return {
    key: `endpoint|${connector.kind}|${url}|${keyEnv ?? ""}|${fingerprint(key)}|${connector.enabledModels.join(",")}`,
    kind: "endpoint",
    target: url,
    run: (signal) => askModelList(connector, url, keyEnv, key, signal),
  };
}

/** The harness probe: executable and credentials, found the way the SDK would (filesystem work). */
export function harnessProbe(
  connector: ConnectorLike,
  env: NodeJS.ProcessEnv,
  target: string,
  check: () => { ready: boolean; missing?: string },
): ProbeSpec {
  const relevant = [
    "PATH",
    "HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "ANTHROPIC_API_KEY",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "ANTHROPIC_AUTH_TOKEN",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
    "CODEX_API_KEY",
    "OPENAI_API_KEY",
    "CODEX_ACCESS_TOKEN",
  ].map(
    (name) =>
      `${name}=${name.endsWith("PATH") || name.endsWith("HOME") || name.endsWith("DIR") ? (env[name] ?? "") : env[name] ? "set" : ""}`,
  );
  return {
    key: `harness|${connector.kind}|${JSON.stringify(connector.config)}|${relevant.join("|")}`,
    kind: "harness",
    target,
    run: async () => {
      const result = check();
      return result.ready ? { ok: true } : { ok: false, error: result.missing ?? "not ready" };
    },
  };
}
