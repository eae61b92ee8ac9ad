// What an endpoint serves, asked when a connector that declares its models is added (MC-6). An id
// is judged by the endpoint, not by its spelling: a deployment name, `gpt-5-codex`, `deepseek-v3`
// stand when the endpoint lists them, or as the operator's declaration when it has no listing
// (readiness then says whether the endpoint lists what is enabled). Refused here is only what
// floats by the endpoint's own convention: an Ollama name with no tag, which is its `:latest`
// (the endpoint lists that name only with tags). What the endpoint offers for each accepted model
// (Ollama's digest, else the listing's metadata: model-fingerprints.ts) is kept with the connector
// as the model's fingerprint, and said on its `connector.added` activity.
import { UserInputError } from "@cadre/core";
import type { ConnectorRow } from "@cadre/store";
import { declaresModels } from "./connector-models.js";
import { endpointHeaders, endpointOf, modelsUrl, wireOf } from "./probe-specs.js";
import { keyEnvOf } from "./readiness.js";
import { servedFingerprints } from "./model-fingerprints.js";

type ConnectorLike = Pick<ConnectorRow, "kind" | "config">;

const LISTING_TIMEOUT_MS = 3_000;

export interface ServedModel {
  id: string;
  /** What the endpoint offers for the model (Ollama's digest, else a hash of the listing's metadata), or null when nothing. */
  fingerprint: string | null;
}

/** The endpoint's model listing, or undefined when it has none or cannot be asked now. */
export async function listServedModels(
  connector: ConnectorLike,
  env: NodeJS.ProcessEnv,
): Promise<ServedModel[] | undefined> {
  const endpoint = endpointOf(connector);
  if (!endpoint || !/^https?:\/\//.test(endpoint)) return undefined;
  const keyEnv = keyEnvOf(connector);
  const key = keyEnv ? env[keyEnv] : undefined;
  try {
    const headers = endpointHeaders(wireOf(connector.kind), key);
    const response = await fetch(modelsUrl(wireOf(connector.kind), endpoint), {
      headers,
      signal: AbortSignal.timeout(LISTING_TIMEOUT_MS),
      redirect: "manual",
    });
    if (!response.ok) return undefined;
    const data = ((await response.json()) as { data?: unknown }).data;
    if (!Array.isArray(data)) return undefined;
    const fingerprints = await servedFingerprints(connector, endpoint, headers, data);
    return data.flatMap((m: unknown) => {
      const id = (m as { id?: unknown } | null)?.id;
      return typeof id === "string" ? [{ id, fingerprint: fingerprints[id] ?? null }] : [];
    });
  } catch {
    return undefined;
  }
}

/**
 * Refuses (UserInputError, per field, nothing written) an enabled model that floats by the
 * endpoint's convention; returns what the listing says of the listed ones (empty without a listing).
 */
export async function checkServedModels(
  connector: ConnectorLike,
  enabledModels: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ServedModel[]> {
  if (!declaresModels(connector)) return [];
  const listed = await listServedModels(connector, env);
  if (listed === undefined) return [];
  const ids = listed.map((m) => m.id);
  const fields: Record<string, string> = {};
  for (const [i, id] of enabledModels.entries()) {
    const problem = floatingOn(id, ids);
    if (problem) fields[`enabledModels[${i}]`] = problem;
  }
  const entries = Object.entries(fields);
  if (entries.length > 0)
    throw new UserInputError(
      `connector: nothing was written. Fix: ${entries.map(([f, why]) => `\`${f}\` ${why}`).join("; ")}.`,
      fields,
    );
  return listed.filter((m) => enabledModels.includes(m.id));
}

/** An untagged name the endpoint lists only with tags (Ollama's convention: the name alone is `:latest`). */
function floatingOn(id: string, listed: readonly string[]): string | undefined {
  if (id.includes(":") || listed.includes(id)) return undefined;
  const tagged = listed.filter((l) => l.startsWith(`${id}:`) && !/:latest$/i.test(l));
  if (!listed.some((l) => l.startsWith(`${id}:`))) return undefined;
  return `model id "${id}" floats: the endpoint lists it only with tags, and a name with no tag is whatever ":latest" was pulled last. Name the tag${tagged.length > 0 ? `: ${tagged.slice(0, 10).join(", ")}` : " (e.g. llama3.1:8b)"}`;
}
