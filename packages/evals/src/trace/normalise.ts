// Normalisation of recorded arguments and texts: the volatile parts of a call (generated ids,
// loopback ports, bearer tokens, whitespace runs) are replaced so that two samples that did the
// same thing record the same thing, and no secret reaches a trace file.
export const ID = /\b(agt|apr|run|cmp|tok|call|task|tcm|wrq|sch)_[0-9a-zA-Z]{6,}\b/g;
export const LOOPBACK = /\b(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\b/g;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;
const TOKEN_ENV = /\b(CADRE_[A-Z_]*TOKEN=)\S+/g;

/** Replaces generated ids, loopback ports and tokens; keeps the text's layout. */
export function redactVolatile(text: string): string {
  return text
    .normalize("NFC")
    .replace(ID, "$1_*")
    .replace(LOOPBACK, "$1:*")
    .replace(BEARER, "$1*")
    .replace(TOKEN_ENV, "$1*");
}

export function normaliseText(text: string): string {
  return redactVolatile(text).replace(/\s+/g, " ").trim();
}

export function normaliseArgs(value: unknown): unknown {
  if (typeof value === "string") return normaliseText(value);
  if (Array.isArray(value)) return value.map(normaliseArgs);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normaliseArgs(v);
    return out;
  }
  return value;
}

export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
