// What an endpoint offers to tell one model from another under the same id (MC-6): Ollama's digest
// of the weights pulled under a name (GET /api/tags: a `pull` re-points a tag, and only the digest
// says so), else what its `/v1/models` entry says besides the id (`created`, `owned_by`; a hash of
// it), else nothing. Kept with the connector when a model is declared (`connectors add`, a hire, a
// model switch) and compared again from the readiness probe's listing — before each wake, from the
// probe cache — so a model replaced under its id is a drift like a served id that differs.
import { createHash } from "node:crypto";
import type { ConnectorRow } from "@cadre/store";
import { declaresModels } from "./connector-models.js";
import type { ProbeRecord } from "./probe-cache.js";

/** Model id → fingerprint ("digest:…" from Ollama, "listing:…" from a model list's metadata). */
export type Fingerprints = Record<string, string>;

export interface FingerprintDrift {
  model: string;
  /** What the endpoint offered when the model was declared. */
  declared: string;
  /** What it offers now. */
  served: string;
}

// Well inside the readiness probe's own bound (3 s): an endpoint that holds an unknown path open
// loses its digests, not its readiness (the listing already answered).
const TAGS_TIMEOUT_MS = 1_200;

/** The fingerprints a `/models` listing's entries carry (their metadata besides id and object). */
export function listingFingerprints(data: readonly unknown[]): Fingerprints {
  const out: Fingerprints = {};
  for (const m of data) {
    const entry = (m ?? {}) as Record<string, unknown>;
    if (typeof entry["id"] !== "string") continue;
    const { id, object: _object, ...meta } = entry;
    const keys = Object.keys(meta).sort();
    if (keys.length === 0) continue;
    const canonical = JSON.stringify(keys.map((k) => [k, meta[k]]));
    out[id as string] = `listing:${createHash("sha256").update(canonical).digest("hex").slice(0, 16)}`;
  }
  return out;
}

/** Ollama's digests by model name, or undefined when the endpoint is no Ollama (no tags listing). */
export async function ollamaDigests(
  endpoint: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<Fingerprints | undefined> {
  // Ollama serves its OpenAI-compatible API under /v1 and its own API beside it.
  const url = `${endpoint.replace(/\/v1$/, "")}/api/tags`;
  const timeout = AbortSignal.timeout(TAGS_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      redirect: "manual",
    });
    if (!response.ok) return undefined;
    const models = ((await response.json()) as { models?: unknown }).models;
    if (!Array.isArray(models)) return undefined;
    const out: Fingerprints = {};
    for (const m of models) {
      const { name, digest } = (m ?? {}) as { name?: unknown; digest?: unknown };
      if (typeof name === "string" && typeof digest === "string" && digest !== "")
        out[name] = `digest:${digest.replace(/^sha256:/, "")}`;
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * What the endpoint offers for each model it lists: Ollama's digest where it has one, else the
 * listing's metadata. Asked only of connectors that declare their models (a vendor's ids are pinned
 * by the registry).
 */
export async function servedFingerprints(
  connector: Pick<ConnectorRow, "kind" | "config">,
  endpoint: string,
  headers: Record<string, string>,
  listing: readonly unknown[],
  signal?: AbortSignal,
): Promise<Fingerprints> {
  if (!declaresModels(connector)) return {};
  const digests = await ollamaDigests(endpoint, headers, signal);
  return { ...listingFingerprints(listing), ...digests };
}

/**
 * The kept fingerprint of `model` against what the endpoint's last probe offered: a drift when
 * both are known and differ. No I/O: it reads the probe's last outcome.
 */
export function fingerprintDrift(
  connector: Partial<Pick<ConnectorRow, "modelFingerprints">>,
  model: string,
  probe: Pick<ProbeRecord, "fingerprints"> | undefined,
): FingerprintDrift | undefined {
  const declared = connector.modelFingerprints?.[model];
  const served = probe?.fingerprints?.[model];
  if (declared === undefined || served === undefined || declared === served) return undefined;
  // A kept digest is compared with a digest only: an endpoint that stopped answering its tags
  // listing for a moment offers the listing's metadata instead, which is no change of the model.
  if (kindOf(declared) !== kindOf(served)) return undefined;
  return { model, declared, served };
}

const kindOf = (fingerprint: string) => fingerprint.slice(0, fingerprint.indexOf(":"));

/** A fingerprint as a reader sees it: its kind and the first characters. */
export function shortFingerprint(fingerprint: string): string {
  const [kind, value = ""] = [kindOf(fingerprint), fingerprint.slice(fingerprint.indexOf(":") + 1)];
  return `${kind} ${value.slice(0, 12)}`;
}
