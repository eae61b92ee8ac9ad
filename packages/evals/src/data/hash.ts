// Canonical JSON (keys sorted at every level) and its SHA-256: the identity of a scenario, a tool
// schema or a cassette request, independent of key order and formatting.
import { sha256 } from "@cadre/core";

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function hashOf(value: unknown): string {
  return sha256(canonicalJson(value));
}
