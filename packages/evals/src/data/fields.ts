// Reading the harness's data files (scenarios, traces, baselines) field by field, so that every
// error names the file and the exact field (`connectors[1].enabledModels[0]`) and says what is
// allowed. Unknown fields are errors too: a typo must not be silently ignored.
import { UserInputError } from "@cadre/core";

export class EvalDataError extends UserInputError {
  constructor(
    readonly file: string,
    readonly field: string,
    why: string,
  ) {
    super(`${file}: ${field ? `${field}: ` : ""}${why}`, { [field || "(file)"]: why });
    this.name = "EvalDataError";
  }
}

/** Where a value sits: its file and its path inside the file. */
export interface At {
  file: string;
  path: string;
}

export function atFile(file: string): At {
  return { file, path: "" };
}

export function child(at: At, key: string | number): At {
  return {
    file: at.file,
    path: typeof key === "number" ? `${at.path}[${key}]` : at.path ? `${at.path}.${key}` : key,
  };
}

export function fail(at: At, why: string): never {
  throw new EvalDataError(at.file, at.path, why);
}

function kindOf(v: unknown): string {
  return v === null
    ? "null"
    : Array.isArray(v)
      ? "an array"
      : typeof v === "object"
        ? "an object"
        : `a ${typeof v}`;
}

/** Parses JSON, naming the file and the position of a syntax error. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EvalDataError(file, "", `not valid JSON (${(error as Error).message})`);
  }
}

export function object(v: unknown, at: At, allowed: readonly string[]): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    fail(at, `must be an object, got ${kindOf(v)}`);
  const o = v as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) fail(child(at, key), `unknown field; allowed fields: ${allowed.join(", ")}`);
  }
  return o;
}

interface Presence {
  optional?: boolean;
}

function present(o: Record<string, unknown>, key: string, at: At, p: Presence): boolean {
  const v = o[key];
  if (v === undefined) {
    if (p.optional) return false;
    fail(child(at, key), "is required");
  }
  return true;
}

export function string(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: Presence & { max?: number; pattern?: RegExp; oneOf?: readonly string[]; nonEmpty?: boolean } = {},
): string | undefined {
  if (!present(o, key, at, opts)) return undefined;
  const v = o[key];
  const here = child(at, key);
  if (typeof v !== "string") fail(here, `must be a string, got ${kindOf(v)}`);
  if (opts.nonEmpty !== false && v.trim().length === 0) fail(here, "must not be empty");
  if (opts.max !== undefined && v.length > opts.max)
    fail(here, `is too long (${v.length} characters; at most ${opts.max})`);
  if (opts.oneOf && !opts.oneOf.includes(v))
    fail(here, `must be one of: ${opts.oneOf.join(", ")} (got "${v.slice(0, 60)}")`);
  if (opts.pattern && !opts.pattern.test(v)) fail(here, `"${v.slice(0, 60)}" does not match ${opts.pattern}`);
  return v;
}

export function requiredString(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: { max?: number; pattern?: RegExp; oneOf?: readonly string[]; nonEmpty?: boolean } = {},
): string {
  return string(o, key, at, opts) as string;
}

export function number(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: Presence & { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
  if (!present(o, key, at, opts)) return undefined;
  const v = o[key];
  const here = child(at, key);
  if (typeof v !== "number" || !Number.isFinite(v)) fail(here, `must be a number, got ${kindOf(v)}`);
  if (opts.integer && !Number.isInteger(v)) fail(here, `must be a whole number, got ${v}`);
  if (opts.min !== undefined && v < opts.min) fail(here, `must be at least ${opts.min}, got ${v}`);
  if (opts.max !== undefined && v > opts.max) fail(here, `must be at most ${opts.max}, got ${v}`);
  return v;
}

export function requiredNumber(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: { min?: number; max?: number; integer?: boolean } = {},
): number {
  return number(o, key, at, opts) as number;
}

export function boolean(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: Presence = {},
): boolean | undefined {
  if (!present(o, key, at, opts)) return undefined;
  const v = o[key];
  if (typeof v !== "boolean") fail(child(at, key), `must be true or false, got ${kindOf(v)}`);
  return v;
}

export function array(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: Presence & { min?: number } = {},
): unknown[] | undefined {
  if (!present(o, key, at, opts)) return undefined;
  const v = o[key];
  const here = child(at, key);
  if (!Array.isArray(v)) fail(here, `must be an array, got ${kindOf(v)}`);
  if (opts.min !== undefined && v.length < opts.min)
    fail(here, `must have at least ${opts.min} item(s), got ${v.length}`);
  return v;
}

export function requiredArray(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: { min?: number } = {},
): unknown[] {
  return array(o, key, at, opts) as unknown[];
}

export function stringList(
  o: Record<string, unknown>,
  key: string,
  at: At,
  opts: { min?: number; optional?: boolean } = {},
): string[] | undefined {
  const list = array(o, key, at, opts);
  if (!list) return undefined;
  return list.map((v, i) => {
    if (typeof v !== "string") fail(child(child(at, key), i), `must be a string, got ${kindOf(v)}`);
    return v;
  });
}

/** The file's schemaVersion: present, and one this build reads. */
export function schemaVersion(o: Record<string, unknown>, at: At, supported: number): void {
  const v = requiredNumber(o, "schemaVersion", at, { integer: true });
  if (v !== supported) fail(child(at, "schemaVersion"), `is ${v}; this build reads version ${supported}`);
}
