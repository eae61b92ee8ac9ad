// Secrets never leave the process. A provider that echoes the key it was sent — "bad
// request for key sk-…", a gateway quoting its `Authorization` header — puts it into error texts,
// and from there into events, session files, the run's error, logs, SSE, the API and the CLI. One
// redactor, built from every key the process was configured with, is applied where provider text
// enters Cadre (the Pi provider boundary, every harness event, the harness gateway's error bodies),
// so nothing downstream ever holds the key.
//
// A key is recognised in the forms a provider or a log is likely to quote it in: raw (which covers
// `Bearer <key>` and `x-api-key: <key>`), URL-encoded, and base64 (standard and URL-safe alphabets,
// at each of the three byte alignments a key can have inside a longer encoded text such as a Basic
// auth header — the part of the encoding that only the key's bytes decide). Keys shorter than
// MIN_SECRET_LENGTH are not redacted: they are not credentials but placeholders or flags, and
// redacting them would rewrite ordinary text.

/** Shorter values are never treated as secrets (a "1", a "none", a short placeholder). */
export const MIN_SECRET_LENGTH = 8;

/** What a redacted secret reads as. */
export const REDACTED = "[redacted]";

const B64 = /[+/=]/g;

function base64Cores(secret: Buffer): string[] {
  const out: string[] = [];
  // Prefix p bytes: the first chars that also encode prefix bits are dropped, and so are the last
  // chars that would also encode the bytes after the key. What is left appears in any base64 text
  // that holds the key at that alignment.
  const skip = [0, 2, 3];
  for (let p = 0; p < 3; p++) {
    const n = p + secret.length;
    const full = Math.floor(n / 3) * 4;
    const rest = n % 3;
    const determined = full + (rest === 1 ? 1 : rest === 2 ? 2 : 0);
    const encoded = Buffer.concat([Buffer.alloc(p), secret]).toString("base64");
    const core = encoded.slice(skip[p], determined);
    if (core.length >= MIN_SECRET_LENGTH) out.push(core);
  }
  // The whole key encoded alone (with its padding) too.
  out.push(secret.toString("base64"));
  return out;
}

/** The forms of one secret a redactor looks for (raw first). */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set<string>([secret]);
  forms.add(encodeURIComponent(secret));
  for (const core of base64Cores(Buffer.from(secret, "utf8"))) {
    forms.add(core);
    const urlSafe = core.replace(B64, (c) => (c === "+" ? "-" : c === "/" ? "_" : ""));
    if (urlSafe.length >= MIN_SECRET_LENGTH) forms.add(urlSafe);
    forms.add(encodeURIComponent(core));
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * Replaces every configured secret, in each of its forms, by `[redacted]`. Immutable and cheap when
 * nothing matches: `value()` returns the very object it was given unless a string in it changed.
 */
export class Redactor {
  readonly #pattern: RegExp | undefined;
  readonly #count: number;

  private constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const secret of secrets) for (const form of secretForms(secret)) forms.add(form);
    // Longest first, so a form that contains another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.#count = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).length;
    this.#pattern = sorted.length > 0 ? new RegExp(sorted.map(escape).join("|"), "g") : undefined;
  }

  /** A redactor for these secret values (undefined and short values are ignored). */
  static of(secrets: Iterable<string | undefined | null>): Redactor {
    const list: string[] = [];
    for (const s of secrets) if (typeof s === "string" && s.length >= MIN_SECRET_LENGTH) list.push(s);
    return new Redactor([...new Set(list)]);
  }

  /** How many distinct secrets it redacts. */
  get secrets(): number {
    return this.#count;
  }

  /** `text` with every secret form replaced. */
  text(text: string): string {
    const pattern = this.#pattern;
    if (pattern === undefined || text.length < MIN_SECRET_LENGTH) return text;
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return text;
    pattern.lastIndex = 0;
    return text.replace(pattern, REDACTED);
  }

  /** True when `text` holds a secret in one of its forms. */
  finds(text: string): boolean {
    const pattern = this.#pattern;
    if (pattern === undefined) return false;
    pattern.lastIndex = 0;
    return pattern.test(text);
  }

  /**
   * A JSON-like value with every string redacted: the same object when nothing changed, else a copy
   * of the parts that did (objects and arrays along the way; the rest shared).
   */
  value<T>(value: T): T {
    if (this.#pattern === undefined) return value;
    return this.#walk(value, 0) as T;
  }

  #walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.text(value);
    if (value === null || typeof value !== "object" || depth > 64) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const next = this.#walk(item, depth + 1);
        if (next !== item) (copy ??= value.slice())[i] = next;
      }
      return copy ?? value;
    }
    if (!isPlain(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const next = this.#walk(item, depth + 1);
      if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
    }
    return copy ?? value;
  }
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A redactor that redacts nothing (no secret configured). */
export const NO_SECRETS: Redactor = Redactor.of([]);
