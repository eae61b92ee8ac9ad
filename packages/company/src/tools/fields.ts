// One field spec per tool input, from which both the model-facing JSON Schema and the strict
// validator are derived — so the schema a model sees and the checks we run cannot disagree.
import type { ValidationResult } from "@cadre/core";
import { type TSchema, Type } from "typebox";

export interface StringField {
  kind: "string";
  description: string;
  maxLength: number;
  required: boolean;
  /** Single-line fields refuse every control character; multi-line ones allow \n and \t. */
  multiline?: boolean;
  /** Dynamic allowed values are checked by the handler; static ones here. */
  enum?: readonly string[];
}

export type FieldSpec = Record<string, StringField>;

// C0 and C1 controls, DEL, and the Unicode line/paragraph separators and bidi overrides that can
// disguise what a name says. Tab and newline are allowed in multi-line fields only.
const FORBIDDEN_SINGLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const FORBIDDEN_MULTI = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

export function schemaOf(spec: FieldSpec): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const [name, field] of Object.entries(spec)) {
    const base = { description: field.description, maxLength: field.maxLength, minLength: 1 };
    const schema = field.enum
      ? Type.Union(
          field.enum.map((v) => Type.Literal(v)),
          { description: field.description },
        )
      : Type.String(base);
    properties[name] = field.required ? schema : Type.Optional(schema);
  }
  return Type.Object(properties, { additionalProperties: false });
}

/** Length as a person counts it: code points, not UTF-16 units. */
export function visibleLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function validateFields<T>(toolName: string, spec: FieldSpec, raw: unknown): ValidationResult<T> {
  // Null prototype: a field literally named "__proto__" must be recorded, not swallowed.
  const fields: Record<string, string> = Object.create(null);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      message: `${toolName} was not run, nothing was written. The input must be an object with the fields ${Object.keys(spec).join(", ")}.`,
      fields: { "": "not an object" },
    };
  }
  // Own keys only, read without touching the prototype: a "__proto__" key is just an extra field.
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!Object.prototype.hasOwnProperty.call(spec, key))
      fields[key] = `unknown field; allowed fields: ${Object.keys(spec).join(", ")}`;
  }
  const value: Record<string, string> = Object.create(null);
  for (const [name, field] of Object.entries(spec)) {
    const present =
      Object.prototype.hasOwnProperty.call(input, name) && input[name] !== undefined && input[name] !== null;
    if (!present) {
      if (field.required) fields[name] = "is required";
      continue;
    }
    const v = input[name];
    if (typeof v !== "string") {
      fields[name] = `must be a string, got ${Array.isArray(v) ? "array" : typeof v}`;
      continue;
    }
    const text = v.normalize("NFC").trim();
    if (text.length === 0) {
      fields[name] = "must not be empty";
      continue;
    }
    if ((field.multiline ? FORBIDDEN_MULTI : FORBIDDEN_SINGLE).test(text)) {
      fields[name] = field.multiline
        ? "contains control characters (only newlines and tabs are allowed)"
        : "contains control or line-break characters; use one line of plain text";
      continue;
    }
    const length = visibleLength(text);
    if (length > field.maxLength) {
      fields[name] = `is too long (${length} characters; at most ${field.maxLength})`;
      continue;
    }
    if (field.enum && !field.enum.includes(text)) {
      fields[name] = `must be one of: ${field.enum.join(", ")} (got "${text.slice(0, 40)}")`;
      continue;
    }
    value[name] = text;
  }
  const problems = Object.entries(fields);
  if (problems.length > 0) {
    const list = problems.map(([f, why]) => `\`${f}\` ${why}`).join("; ");
    return {
      ok: false,
      message: `${toolName} was not run, nothing was written. Fix: ${list}.`,
      fields: { ...fields },
    };
  }
  return { ok: true, value: { ...value } as T };
}
