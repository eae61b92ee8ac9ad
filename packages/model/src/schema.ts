// The schema layer: TypeBox is the one schema language (tool inputs, route bodies and responses,
// scenario, trace and report files), and this module adds the little Cadre needs on top of it:
//   - `Text(...)`: a string under the text policy (text-policy.ts) — NFC-normalised and trimmed
//     before it is checked, lengths in code points, the policy registered as a TypeBox refinement so
//     that the JSON Schema, `Value.Check` and this parser all apply it;
//   - `OneOf(list)`: a union of string literals, from the `as const` lists of vocabulary.ts;
//   - `parse(schema, raw)`: strict validation with readable problems — one per field, named by its
//     path (`connectors[1].enabledModels[0]`), saying why and what is allowed — and the clean value,
//     typed `Static<typeof schema>`. Unknown fields are problems too, `__proto__` included.
// The parser reads the JSON Schema keywords themselves, then hands the clean value to TypeBox's own
// `Value.Check` as well, so the document a model or an API user reads and the checks we run cannot
// disagree: anything the parser would let through that the schema does not allow is still refused
// (TypeBox's check compiled once per schema: `checkSchema`).
import { type Static, type TLiteral, type TSchema, type TString, type TUnion, Type } from "typebox";
import { Value } from "typebox/value";
import { Compile } from "typebox/compile";
import { codePointLength, normaliseText, type TextLayout, textProblem } from "./text-policy.js";

export type { Static, TSchema } from "typebox";

const TEXT = "~cadre-text";
const EXPLAIN = "~cadre-explain";

interface TextMeta {
  layout: TextLayout;
  /** Said when the pattern does not match, e.g. "lowercase letters, digits and -". */
  patternHint?: string;
}

export interface TextOptions {
  description?: string;
  /** In code points, after normalisation. */
  maxLength: number;
  /** Free text with newlines and tabs (descriptions, notes); default one line (names, titles, ids). */
  multiline?: boolean;
  /** 0 admits the empty text; default 1. */
  minLength?: 0 | 1;
  /** A JSON Schema pattern the normalised text must match, and how to say it to a person. */
  pattern?: { source: string; hint: string };
}

function hidden(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true, writable: false });
}

/** A string under Cadre's text policy. Its JSON Schema is a plain `type: string` with its lengths. */
export function Text(options: TextOptions): TString {
  const layout: TextLayout = options.multiline ? "multiline" : "line";
  const base = Type.String({
    ...(options.description !== undefined ? { description: options.description } : {}),
    maxLength: options.maxLength,
    minLength: options.minLength ?? 1,
    ...(options.pattern ? { pattern: options.pattern.source } : {}),
  });
  const refined = Type.Refine(
    base,
    (value: string) => textProblem(value, layout) === undefined,
    (value: string) => textProblem(value, layout) ?? "",
  ) as TString;
  hidden(refined, TEXT, { layout, ...(options.pattern ? { patternHint: options.pattern.hint } : {}) });
  return refined;
}

/** The text policy layout of a `Text` schema; undefined for any other schema. */
export function textLayoutOf(schema: TSchema): TextLayout | undefined {
  return (schema as unknown as Record<string, TextMeta | undefined>)[TEXT]?.layout;
}

/** One of the given strings (a union of literals, as the model-facing schemas spell an enum). */
export function OneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  options: { description?: string } = {},
): TUnion<[TLiteral<T[number]>]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as never;
}

/** `schema` or null. */
export function Nullable<S extends TSchema>(schema: S) {
  return Type.Union([schema, Type.Null()]);
}

/** Replaces the parser's words for a value this schema refuses (not for problems inside it). */
export function explained<S extends TSchema>(schema: S, explain: (value: unknown) => string): S {
  hidden(schema, EXPLAIN, explain);
  return schema;
}

/** A file's schemaVersion: this number and no other, said as such. */
export function SchemaVersion<const N extends number>(version: N) {
  return explained(Type.Literal(version), (v) =>
    typeof v === "number"
      ? `is ${v}; this build reads version ${version}`
      : `must be ${version}, got ${kindOf(v)}`,
  );
}

/** Each bad field's path (`""` for the value itself) and why, in the order a reader meets them. */
export type Problems = Record<string, string>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problems };

/** `a.b`, `a[1]`, or the top-level field's bare name. */
function at(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const FAIL: unique symbol = Symbol("fail");
type Out = unknown | typeof FAIL;

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function quote(v: unknown): string {
  return typeof v === "string" ? `"${v.length > 60 ? `${v.slice(0, 60)}…` : v}"` : JSON.stringify(v);
}

function admitsNull(s: any): boolean {
  return (
    s.type === "null" || (Array.isArray(s.anyOf) && s.anyOf.some(admitsNull)) || Object.keys(s).length === 0
  );
}

function typeName(s: any): string {
  if ("const" in s) return quote(s.const);
  switch (s.type) {
    case "string":
      return "a string";
    case "integer":
      return "a whole number";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "array":
      return "a list";
    case "object":
      return "an object";
    default:
      return Array.isArray(s.anyOf) ? s.anyOf.map(typeName).join(" or ") : "a value";
  }
}

function matchesType(s: any, v: unknown): boolean {
  if ("const" in s) return s.const === v;
  switch (s.type) {
    case "string":
      return typeof v === "string";
    case "integer":
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    case "array":
      return Array.isArray(v);
    case "object":
      return isPlainObject(v);
    default:
      return true;
  }
}

function range(s: any, v: number): string | undefined {
  const min = s.minimum as number | undefined;
  const max = s.maximum as number | undefined;
  if ((min === undefined || v >= min) && (max === undefined || v <= max)) return undefined;
  if (min !== undefined && max !== undefined) return `must be from ${min} to ${max}, got ${v}`;
  return min !== undefined ? `must be at least ${min}, got ${v}` : `must be at most ${max}, got ${v}`;
}

class Walker {
  readonly problems: Problems = Object.create(null);

  fail(path: string, why: string): typeof FAIL {
    if (!own(this.problems, path)) this.problems[path] = why;
    return FAIL;
  }

  /** The clean value, or FAIL with the problem recorded. */
  value(s: any, v: unknown, path: string): Out {
    const out = this.shape(s, v, path);
    if (out === FAIL) return FAIL;
    for (const refinement of (s["~refine"] ?? []) as Array<{
      check(v: unknown): boolean;
      error(v: unknown): string;
    }>)
      if (!refinement.check(out)) return this.fail(path, refinement.error(out));
    return out;
  }

  private refuse(s: any, v: unknown, path: string, why: string): typeof FAIL {
    const explain = s[EXPLAIN] as ((v: unknown) => string) | undefined;
    return this.fail(path, explain ? explain(v) : why);
  }

  private shape(s: any, v: unknown, path: string): Out {
    if (Array.isArray(s.anyOf)) return this.union(s, v, path);
    if ("const" in s)
      return v === s.const ? v : this.refuse(s, v, path, `must be ${quote(s.const)}, got ${quote(v)}`);
    switch (s.type) {
      case "string":
        return this.string(s, v, path);
      case "integer":
      case "number": {
        if (typeof v !== "number" || !Number.isFinite(v))
          return this.refuse(s, v, path, `must be ${typeName(s)}, got ${kindOf(v)}`);
        if (s.type === "integer" && !Number.isInteger(v))
          return this.refuse(s, v, path, `must be a whole number, got ${v}`);
        const problem = range(s, v);
        return problem ? this.refuse(s, v, path, problem) : v;
      }
      case "boolean":
        return typeof v === "boolean"
          ? v
          : this.refuse(s, v, path, `must be true or false, got ${kindOf(v)}`);
      case "null":
        return v === null ? v : this.refuse(s, v, path, `must be null, got ${kindOf(v)}`);
      case "array":
        return this.array(s, v, path);
      case "object":
        return this.object(s, v, path);
      default:
        return v; // {}: any JSON value
    }
  }

  private union(s: any, v: unknown, path: string): Out {
    const members = s.anyOf as any[];
    if (members.every((m) => "const" in m)) {
      const value = typeof v === "string" ? normaliseText(v) : v;
      if (members.some((m) => m.const === value)) return value;
      const allowed = members.map((m) => m.const).join(", ");
      return this.refuse(
        s,
        v,
        path,
        `must be one of: ${allowed} (got ${typeof v === "string" ? quote(v) : kindOf(v)})`,
      );
    }
    const candidates = members.filter((m) => matchesType(m, v));
    if (candidates.length === 0)
      return this.refuse(s, v, path, `must be ${members.map(typeName).join(" or ")}, got ${kindOf(v)}`);
    let first: Problems | undefined;
    for (const m of candidates) {
      const trial = new Walker();
      const out = trial.value(m, v, path);
      if (out !== FAIL) return out;
      first ??= trial.problems;
    }
    Object.assign(this.problems, first);
    return FAIL;
  }

  private string(s: any, v: unknown, path: string): Out {
    if (typeof v !== "string") return this.refuse(s, v, path, `must be a string, got ${kindOf(v)}`);
    const meta = s[TEXT] as TextMeta | undefined;
    const text = meta ? normaliseText(v) : v;
    if (s.minLength !== undefined && text.length === 0 && s.minLength > 0)
      return this.refuse(s, v, path, "must not be empty");
    if (meta) {
      const problem = textProblem(text, meta.layout);
      if (problem) return this.fail(path, problem);
    }
    const length = codePointLength(text);
    if (s.maxLength !== undefined && length > s.maxLength)
      return this.refuse(s, v, path, `is too long (${length} characters; at most ${s.maxLength})`);
    if (s.minLength !== undefined && length < s.minLength)
      return this.refuse(s, v, path, `is too short (${length} characters; at least ${s.minLength})`);
    if (s.pattern !== undefined && !new RegExp(s.pattern, "u").test(text))
      return this.refuse(
        s,
        v,
        path,
        `${quote(text)} does not match ${meta?.patternHint ? `the allowed form: ${meta.patternHint}` : `the pattern ${s.pattern}`}`,
      );
    return text;
  }

  private array(s: any, v: unknown, path: string): Out {
    if (!Array.isArray(v)) return this.refuse(s, v, path, `must be a list, got ${kindOf(v)}`);
    if (s.minItems !== undefined && v.length < s.minItems)
      return this.refuse(s, v, path, `must have at least ${s.minItems} item(s), got ${v.length}`);
    if (s.maxItems !== undefined && v.length > s.maxItems)
      return this.refuse(s, v, path, `has ${v.length} items; at most ${s.maxItems}`);
    if (!s.items) return [...v];
    const out: unknown[] = [];
    let failed = false;
    v.forEach((item, i) => {
      const clean = this.value(s.items, item, at(path, i));
      if (clean === FAIL) failed = true;
      else out.push(clean);
    });
    return failed ? FAIL : out;
  }

  private object(s: any, v: unknown, path: string): Out {
    if (!isPlainObject(v)) return this.refuse(s, v, path, `must be an object, got ${kindOf(v)}`);
    const properties = (s.properties ?? {}) as Record<string, any>;
    const required = new Set<string>(s.required ?? []);
    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, any>).map(
      ([p, schema]) => [new RegExp(p, "u"), schema] as const,
    );
    const keys = Object.keys(v);
    if (s.maxProperties !== undefined && keys.length > s.maxProperties)
      return this.refuse(s, v, path, `has ${keys.length} keys; at most ${s.maxProperties}`);
    const out: Record<string, unknown> = {};
    let failed = false;
    const names = Object.keys(properties);
    // Unknown keys first, read as own keys only: a "__proto__" key is just another field.
    for (const key of keys) {
      if (own(properties, key)) continue;
      const pattern = patterns.find(([p]) => p.test(key));
      const extra = pattern?.[1] ?? (s.additionalProperties === false ? undefined : s.additionalProperties);
      if (extra === undefined) {
        failed = true;
        this.fail(at(path, key), `unknown field; allowed fields: ${names.join(", ")}`);
        continue;
      }
      const clean = extra === true ? v[key] : this.value(extra, v[key], at(path, key));
      if (clean === FAIL) failed = true;
      else define(out, key, clean);
    }
    for (const name of names) {
      const schema = properties[name];
      const raw = own(v, name) ? v[name] : undefined;
      // An absent optional field may be sent as null where the field itself does not take null.
      if (raw === undefined || (raw === null && !admitsNull(schema))) {
        if (required.has(name)) {
          failed = true;
          this.fail(at(path, name), "is required");
        }
        continue;
      }
      const clean = this.value(schema, raw, at(path, name));
      if (clean === FAIL) failed = true;
      else define(out, name, clean);
    }
    return failed ? FAIL : out;
  }
}

/**
 * Validates `raw` against `schema`: the clean value (texts normalised, absent optional fields left
 * out, nothing the schema does not name), or every problem found, each naming its field.
 */
/**
 * TypeBox's check of a schema, compiled once per schema (the interpreted `Value.Check` walks the
 * schema on every call, which costs more than the request it guards); a schema TypeBox cannot
 * compile is checked the interpreted way.
 */
const compiled = new WeakMap<TSchema, (value: unknown) => boolean>();

export function checkSchema(schema: TSchema, value: unknown): boolean {
  let check = compiled.get(schema);
  if (!check) {
    try {
      const validator = Compile(schema);
      check = (v) => validator.Check(v);
    } catch {
      check = (v) => Value.Check(schema, v);
    }
    compiled.set(schema, check);
  }
  return check(value);
}

export function parse<S extends TSchema>(schema: S, raw: unknown): Parsed<Static<S>> {
  const walker = new Walker();
  const value = walker.value(schema, raw, "");
  if (value === FAIL) return { ok: false, problems: { ...walker.problems } };
  if (!checkSchema(schema, value)) {
    // The parser and the schema disagree (our bug): refuse, naming what TypeBox saw.
    const [first] = Value.Errors(schema, value);
    const field = (first?.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
    return { ok: false, problems: { [field]: `does not match its schema (${first?.message ?? "invalid"})` } };
  }
  return { ok: true, value: value as Static<S> };
}

/** "`name` is required; `role` is too long (…)": the problems as one readable sentence part. */
export function describeProblems(problems: Problems): string {
  return Object.entries(problems)
    .map(([field, why]) => `${field === "" ? "the input" : `\`${field}\``} ${why}`)
    .join("; ");
}

/** The JSON Schema document of a TypeBox schema, as plain JSON (TypeBox's own markers left out). */
export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
