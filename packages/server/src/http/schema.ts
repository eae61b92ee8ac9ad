// One schema per route body: the string fields reuse the company tools' field specs (so the legacy
// hire/approval routes validate exactly like the tools), plus the few non-string kinds other routes
// need. The same spec yields the validator and the OpenAPI schema, so the two cannot disagree.
import { type FieldSpec, schemaOf, type StringField, validateFields } from "@cadre/company";
import { UserInputError } from "@cadre/core";

export interface IntegerField {
  kind: "integer";
  description: string;
  required: boolean;
  min: number;
  max: number;
}

export interface StringListField {
  kind: "string-list";
  description: string;
  required: boolean;
  maxItems: number;
  itemMaxLength: number;
}

export interface ObjectField {
  kind: "object";
  description: string;
  required: boolean;
  maxKeys: number;
}

export type BodyField = StringField | IntegerField | StringListField | ObjectField;
export type BodySpec = Record<string, BodyField>;

function stringPart(spec: BodySpec): FieldSpec {
  const out: FieldSpec = {};
  for (const [name, field] of Object.entries(spec)) if (field.kind === "string") out[name] = field;
  return out;
}

const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

function checkOther(name: string, field: Exclude<BodyField, StringField>, v: unknown): string | undefined {
  switch (field.kind) {
    case "integer":
      if (typeof v !== "number" || !Number.isInteger(v))
        return `must be an integer, got ${Array.isArray(v) ? "array" : typeof v}`;
      if (v < field.min || v > field.max) return `must be from ${field.min} to ${field.max}`;
      return undefined;
    case "string-list":
      if (!Array.isArray(v)) return `must be a list of strings, got ${typeof v}`;
      if (v.length > field.maxItems) return `has ${v.length} items; at most ${field.maxItems}`;
      if (
        !v.every(
          (x) =>
            typeof x === "string" &&
            x.length > 0 &&
            x.length <= field.itemMaxLength &&
            !/[\u0000-\u001f\u007f]/.test(x),
        )
      ) {
        return `must hold non-empty single-line strings of at most ${field.itemMaxLength} characters`;
      }
      return undefined;
    case "object":
      if (typeof v !== "object" || v === null || Array.isArray(v))
        return `must be an object, got ${Array.isArray(v) ? "array" : v === null ? "null" : typeof v}`;
      if (Object.keys(v).length > field.maxKeys) return `has more than ${field.maxKeys} keys`;
      if (has(v, "__proto__") || has(v, "constructor") || has(v, "prototype"))
        return `must not use the keys __proto__, constructor or prototype (${name})`;
      return undefined;
  }
}

/**
 * Validates a parsed body against its spec; throws a UserInputError naming every bad field, or
 * returns a clean copy holding only the spec's fields (null-prototype free).
 */
export function validateBody<T>(route: string, spec: BodySpec, raw: Record<string, unknown>): T {
  const strings = stringPart(spec);
  const stringInput: Record<string, unknown> = {};
  // Null prototype: a field literally named "__proto__" must be recorded, not swallowed.
  const fields: Record<string, string> = Object.create(null);
  for (const key of Object.keys(raw)) {
    if (!has(spec, key)) fields[key] = `unknown field; allowed fields: ${Object.keys(spec).join(", ")}`;
    else if (has(strings, key)) stringInput[key] = raw[key];
  }
  const stringResult = validateFields<Record<string, string>>(route, strings, stringInput);
  if (!stringResult.ok) Object.assign(fields, stringResult.fields);
  const value: Record<string, unknown> = stringResult.ok ? { ...stringResult.value } : {};
  for (const [name, field] of Object.entries(spec)) {
    if (field.kind === "string") continue;
    const v = has(raw, name) ? raw[name] : undefined;
    if (v === undefined || v === null) {
      if (field.required) fields[name] = "is required";
      continue;
    }
    const problem = checkOther(name, field, v);
    if (problem) fields[name] = problem;
    else value[name] = v;
  }
  const problems = Object.entries(fields);
  if (problems.length > 0)
    throw new UserInputError(
      `${route}: nothing was written. Fix: ${problems.map(([f, why]) => `\`${f}\` ${why}`).join("; ")}.`,
      fields,
    );
  return value as T;
}

/** JSON Schema of a body spec (string fields exactly as the model-facing tool schema describes them). */
export function jsonSchemaOf(spec: BodySpec): Record<string, unknown> {
  const strings = JSON.parse(JSON.stringify(schemaOf(stringPart(spec)))) as {
    properties?: Record<string, unknown>;
  };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(spec)) {
    if (field.required) required.push(name);
    switch (field.kind) {
      case "string":
        properties[name] = strings.properties?.[name];
        break;
      case "integer":
        properties[name] = {
          type: "integer",
          minimum: field.min,
          maximum: field.max,
          description: field.description,
        };
        break;
      case "string-list":
        properties[name] = {
          type: "array",
          maxItems: field.maxItems,
          items: { type: "string", minLength: 1, maxLength: field.itemMaxLength },
          description: field.description,
        };
        break;
      case "object":
        properties[name] = { type: "object", maxProperties: field.maxKeys, description: field.description };
        break;
    }
  }
  return { type: "object", properties, required, additionalProperties: false };
}
