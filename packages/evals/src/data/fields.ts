// Reading the harness's data files (scenarios, traces, baselines, cassettes, reports) against their
// TypeBox schemas, so that every error names the file and the exact field
// (`connectors[1].enabledModels[0]`) and says what is allowed. Unknown fields are errors too: a typo
// must not be silently ignored. Rules that span fields stay in code beside each parser, and name
// their field with `child` / `fail`.
import { UserInputError } from "@cadre/core";
import { parse, type Static, type TSchema } from "@cadre/model";
import { Type } from "typebox";

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

/** Parses JSON, naming the file and the position of a syntax error. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EvalDataError(file, "", `not valid JSON (${(error as Error).message})`);
  }
}

/** The value checked against its schema (texts normalised), or an EvalDataError naming the first bad field. */
export function readAs<S extends TSchema>(schema: S, raw: unknown, at: At): Static<S> {
  const parsed = parse(schema, raw);
  if (parsed.ok) return parsed.value;
  const [path, why] = Object.entries(parsed.problems)[0] ?? ["", "is not valid"];
  const full = !path
    ? at.path
    : !at.path
      ? path
      : path.startsWith("[")
        ? `${at.path}${path}`
        : `${at.path}.${path}`;
  throw new EvalDataError(at.file, full, why);
}

/** A SHA-256 in hex, as the harness writes them. */
export const Sha256 = () => Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256, hex." });
