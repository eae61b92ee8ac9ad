// Hostile mutations of a valid input, derived from its TypeBox object schema, for the property-based
// suites over every write route and every tool: wrong types per field, arbitrary JSON values, deep
// nesting, huge strings, lone surrogates, bidi / zero-width / control characters, prototype keys,
// extra fields, numbers out of range, empty and white-space strings, missing required fields, a body
// that is not an object. Test support only (kept out of the package build): it imports fast-check.
import fc from "fast-check";
import type { TSchema } from "typebox";
import { textLayoutOf } from "../schema.js";

/** A nested list or object `depth` levels deep, kept symbolic until it is sent (see toJson / materialise). */
export class Deep {
  constructor(
    readonly depth: number,
    readonly kind: "array" | "object",
  ) {}
}

export interface HostileCase {
  /** What was done, for the failure report. */
  label: string;
  /** The mutated input (may hold Deep placeholders and own `__proto__` keys). */
  body: unknown;
  /** The top-level field the mutation hit; "" when it hit the input itself. */
  target: string;
  /** True when the input is invalid by construction: the refusal must then name `target`. */
  invalid: boolean;
}

type FieldSchema = TSchema & Record<string, any>;

/** The text a client sends: JSON, with each Deep spelled out (built without recursion). */
export function toJson(value: unknown): string {
  const deep: Deep[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Deep) {
      deep.push(v);
      return `@@deep${deep.length - 1}@@`;
    }
    return v;
  });
  return text.replace(/"@@deep(\d+)@@"/g, (_m, i: string) => {
    const d = deep[Number(i)]!;
    return d.kind === "array"
      ? `${"[".repeat(d.depth)}1${"]".repeat(d.depth)}`
      : `${'{"a":'.repeat(d.depth)}1${"}".repeat(d.depth)}`;
  });
}

/** The value a tool receives: each Deep built as real nesting, iteratively. */
export function materialise(value: unknown): unknown {
  if (value instanceof Deep) {
    let inner: unknown = 1;
    for (let i = 0; i < value.depth; i++) inner = value.kind === "array" ? [inner] : { a: inner };
    return inner;
  }
  if (Array.isArray(value)) return value.map(materialise);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      Object.defineProperty(out, key, {
        value: materialise((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

/** An object with own keys exactly as given (`__proto__` included), as JSON.parse builds it. */
export function withOwn(base: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base))
    Object.defineProperty(out, k, { value: base[k], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** Characters no text field may hold, and those one-line fields (names, titles, ids) may not. */
export const ALWAYS_REFUSED = [
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\u000b",
  "\u000c",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];
export const REFUSED_IN_A_LINE = [
  "\n",
  "\t",
  "\u00ad",
  "\u034f",
  "\u061c",
  "\u115f",
  "\u180e",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u2060",
  "\u2064",
  "\u3164",
  "\ufe0f",
  "\ufeff",
  "\u{e0041}",
];
const BLANK = ["", " ", "   ", "\t", "\n", " \u00a0 ", "\u3000", "\u2003", "\r\n", "\u200b", "\ufeff"];
const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

const jsonValue = fc.jsonValue({ maxDepth: 3 });

function kindOfSchema(f: FieldSchema): string {
  if (Array.isArray(f["anyOf"])) {
    const members = f["anyOf"] as FieldSchema[];
    if (members.every((m) => typeof m["const"] === "string")) return "enum";
    return "any";
  }
  return String(f["type"] ?? "any");
}

function matchesKind(kind: string, v: unknown): boolean {
  switch (kind) {
    case "enum":
    case "string":
      return typeof v === "string";
    case "integer":
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return v !== null && typeof v === "object" && !Array.isArray(v);
    default:
      return true;
  }
}

/**
 * `base` with `ch` put at a random place between visible characters: texts are trimmed before they
 * are checked, so a character at either end that trimming removes (U+FEFF, U+2028, …) is not hostile.
 */
function inject(base: string, chars: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.nat({ max: base.length }), fc.constantFrom(...chars), fc.constantFrom("", "a", "é", "🦄"))
    .map(([at, ch, extra]) => `${base.slice(0, at)}${extra}Q${ch}Q${base.slice(at)}`);
}

function placeholder(f: FieldSchema, valid: unknown): string {
  if (typeof valid === "string" && valid.length > 0) return valid;
  return typeof f["pattern"] === "string" ? "abc" : "Value";
}

/** One field's new value, what it is, and whether it is invalid by construction. */
interface FieldMutation {
  label: string;
  value: unknown;
  invalid: boolean;
}

/** Mutations of one field. */
/** A nullable field's non-null member (its bounds live there); any other schema as it is. */
function unwrapNullable(f: FieldSchema): FieldSchema {
  if (!Array.isArray(f["anyOf"])) return f;
  const nonNull = (f["anyOf"] as FieldSchema[]).filter((m) => m["type"] !== "null");
  return nonNull.length === 1 && nonNull.length < (f["anyOf"] as FieldSchema[]).length
    ? (nonNull[0] as FieldSchema)
    : f;
}

function fieldMutations(field: string, schema: FieldSchema, valid: unknown): fc.Arbitrary<FieldMutation>[] {
  const f = unwrapNullable(schema);
  const kind = kindOfSchema(f);
  const at = (label: string, value: fc.Arbitrary<unknown>, invalid: boolean) =>
    value.map((v) => ({ label: `${field}: ${label}`, value: v, invalid }));
  const out: fc.Arbitrary<FieldMutation>[] = [
    at(
      "wrong type",
      // Not null: an optional field sent as null reads as absent (null has its own mutation below).
      jsonValue.filter((v) => v !== null && !matchesKind(kind, v)),
      kind !== "any",
    ),
    at("any JSON value", jsonValue, false),
    at(
      "deep nesting",
      fc
        .tuple(fc.integer({ min: 20, max: 12_000 }), fc.constantFrom("array" as const, "object" as const))
        .map(([d, k]) => new Deep(d, k)),
      kind !== "any" && kind !== "object",
    ),
    at("null", fc.constant(null), false),
  ];
  if (kind === "string") {
    const base = placeholder(f, valid);
    const layout = textLayoutOf(f);
    const max = (f["maxLength"] as number | undefined) ?? 10_000;
    out.push(
      at("a refused character", inject(base, ALWAYS_REFUSED), textLayoutOf(f) !== undefined),
      at("an invisible or line-break character", inject(base, REFUSED_IN_A_LINE), layout === "line"),
      at(
        "empty or white space",
        fc.constantFrom(...BLANK),
        layout !== undefined && (f["minLength"] ?? 1) > 0,
      ),
      at(
        "too long",
        fc
          .tuple(
            fc.integer({ min: max + 1, max: Math.max(max + 1, 60_000) }),
            fc.constantFrom("x", "é", "🦄"),
          )
          .map(([n, ch]) => ch.repeat(n)),
        true,
      ),
      at("any unicode", fc.string({ unit: "binary", maxLength: 40 }), false),
      at("grapheme soup", fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }), false),
    );
  }
  if (kind === "enum") {
    // Only the string members: a nullable enum's anyOf also holds a null member.
    const values = (f["anyOf"] as FieldSchema[])
      .map((m) => m["const"])
      .filter((v): v is string => typeof v === "string");
    out.push(
      at(
        "a near miss",
        fc
          .tuple(
            fc.constantFrom(...values),
            fc.constantFrom(...ALWAYS_REFUSED, ...REFUSED_IN_A_LINE, "x", "-"),
          )
          .map(([v, ch]) => `${v.slice(0, 1)}${ch}${v.slice(1)}`),
        true,
      ),
      at(
        "upper case",
        fc.constantFrom(...values).map((v) => v.toUpperCase()),
        true,
      ),
      at("empty or white space", fc.constantFrom(...BLANK), true),
    );
  }
  if (kind === "integer" || kind === "number") {
    const min = f["minimum"] as number | undefined;
    const max = f["maximum"] as number | undefined;
    const outOfRange: number[] = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -1, -0.5];
    if (min !== undefined) outOfRange.push(min - 1);
    if (max !== undefined) outOfRange.push(max + 1, max * 2);
    out.push(
      at(
        "out of range",
        // 1e308 and -1e308 are outside any bounded range; an unbounded number has no "out of range".
        min === undefined && max === undefined
          ? fc.constant(Number.NaN)
          : fc.constantFrom(
              ...outOfRange.filter((n) => (min !== undefined && n < min) || (max !== undefined && n > max)),
            ),
        true,
      ),
      at(
        "a fraction",
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
        kind === "integer",
      ),
      at("a numeric string", fc.integer().map(String), true),
    );
  }
  if (kind === "array") {
    const items = f["items"] as FieldSchema | undefined;
    const maxItems = (f["maxItems"] as number | undefined) ?? 100;
    out.push(
      at(
        "too many items",
        fc.integer({ min: maxItems + 1, max: maxItems * 5 }).map((n) => Array(n).fill("m")),
        true,
      ),
      at(
        "items of the wrong type",
        fc.array(
          jsonValue.filter((v) => typeof v !== "string"),
          { minLength: 1 },
        ),
        !!items,
      ),
      at(
        "an item with a refused character",
        inject("m", ALWAYS_REFUSED).map((s) => [s]),
        !!items,
      ),
      at(
        "an empty item",
        fc.constantFrom(...BLANK).map((s) => [s]),
        !!items,
      ),
    );
  }
  if (kind === "object") {
    out.push(
      at(
        "a prototype key inside",
        fc.tuple(fc.constantFrom(...PROTO_KEYS.slice(0, 3)), jsonValue).map(([k, v]) => withOwn({}, k, v)),
        true,
      ),
      at(
        "too many keys",
        fc
          .integer({ min: 21, max: 300 })
          .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
        (f["maxProperties"] as number | undefined) !== undefined,
      ),
      at(
        "deep values",
        fc.integer({ min: 50, max: 12_000 }).map((d) => ({ nested: new Deep(d, "object") })),
        false,
      ),
      at(
        "secret-looking values",
        fc.constantFrom(
          { apiKey: "sk-live-0123456789abcdef0123" },
          { auth: { token: "Bearer abcdef0123456789abcdef" } },
          { baseUrl: "https://user:hunter2@example.com/v1" },
          { nested: [{ password: "hunter2hunter2" }] },
        ),
        false,
      ),
      at("arbitrary object", fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 5 }), false),
    );
  }
  return out;
}

/**
 * Hostile mutations of `valid`, an input `schema` (a TypeBox object) accepts. One to three
 * mutations per case; the case's target is the first one's field, and it is invalid when any is.
 */
export function hostileInput(schema: TSchema, valid: Record<string, unknown>): fc.Arbitrary<HostileCase> {
  const s = schema as FieldSchema;
  const properties = (s["properties"] ?? {}) as Record<string, FieldSchema>;
  const required = new Set<string>((s["required"] as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  type Step = {
    label: string;
    target: string;
    invalid: boolean;
    apply: (b: Record<string, unknown>) => unknown;
  };
  const steps: fc.Arbitrary<Step>[] = [];
  for (const name of names) {
    for (const m of fieldMutations(name, properties[name]!, valid[name]))
      steps.push(
        m.map((c) => ({
          label: `${c.label} = ${preview(c.value)}`,
          target: name,
          // null is the absent value for an optional field that does not take null.
          invalid: c.invalid || (c.value === null && required.has(name)),
          apply: (b) => withOwn(b, name, c.value),
        })),
      );
    if (required.has(name))
      steps.push(
        fc.constant({
          label: `${name}: missing`,
          target: name,
          invalid: true,
          apply: (b) => {
            const { [name]: _gone, ...rest } = b;
            return rest;
          },
        }),
      );
  }
  const closed = s["additionalProperties"] === false;
  steps.push(
    fc
      .tuple(
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !names.includes(k)),
        jsonValue,
      )
      .map(([k, v]) => ({
        label: `extra field ${JSON.stringify(k)} = ${preview(v)}`,
        target: k,
        invalid: closed,
        apply: (b) => withOwn(b, k, v),
      })),
    fc.tuple(fc.constantFrom(...PROTO_KEYS), jsonValue).map(([k, v]) => ({
      label: `prototype key ${k} = ${preview(v)}`,
      target: k,
      invalid: closed,
      apply: (b) => withOwn(b, k, v),
    })),
  );
  const whole: fc.Arbitrary<HostileCase> = fc
    .oneof(
      jsonValue.filter((v) => v === null || typeof v !== "object" || Array.isArray(v)),
      fc
        .tuple(fc.integer({ min: 20, max: 12_000 }), fc.constant("array" as const))
        .map(([d, k]) => new Deep(d, k)),
    )
    .map((v) => ({ label: `the input is ${preview(v)}`, body: v, target: "", invalid: true }));
  const mutated: fc.Arbitrary<HostileCase> = fc
    .array(fc.oneof(...steps), { minLength: 1, maxLength: 3 })
    .map((chosen) => {
      let body: unknown = valid;
      for (const step of chosen) body = step.apply(body as Record<string, unknown>);
      // A later mutation of a field replaces an earlier one: what counts is each field's last.
      const last = new Map<string, Step>();
      for (const step of chosen) last.set(step.target, step);
      // The field a refusal must name: the first one left invalid by construction, if any.
      const final = [...last.values()];
      const named = final.find((c) => c.invalid) ?? final[0]!;
      return {
        label: chosen.map((c) => c.label).join("; "),
        body,
        target: named.target,
        invalid: named.invalid,
      };
    });
  return fc.oneof({ arbitrary: mutated, weight: 9 }, { arbitrary: whole, weight: 1 });
}

function preview(v: unknown): string {
  if (v instanceof Deep) return `<${v.kind} nested ${v.depth} deep>`;
  let text: string;
  try {
    text = toJson(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text;
}

/**
 * fast-check's parameters: the fixed seed, or CADRE_FC_SEED (fast-check prints the seed with any
 * failure); `numRuns`, or CADRE_FC_RUNS for a longer hunt than `npm test` affords.
 */
export function propertyParameters(numRuns: number): { seed: number; numRuns: number } {
  const integer = (name: string, fallback: number) => {
    const env = process.env[name];
    const n = env !== undefined && env !== "" ? Number(env) : fallback;
    if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${env}`);
    return n;
  };
  return { seed: integer("CADRE_FC_SEED", 20_261_201), numRuns: integer("CADRE_FC_RUNS", numRuns) };
}
