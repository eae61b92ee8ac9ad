// Reads a recording directory strictly: the manifest, then every traces file it lists, each
// checked against the manifest (ids, hashes, sample counts). Errors name the file and field.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserInputError } from "@cadre/core";
import {
  atFile,
  child,
  fail,
  object,
  parseJson,
  requiredArray,
  requiredNumber,
  requiredString,
  schemaVersion,
  string,
} from "../data/fields.js";
import { parseScenarioTraces } from "../trace/parse.js";
import type { Trace } from "../trace/types.js";
import { RECORDING_SCHEMA_VERSION, type Recording, type RecordingManifest } from "./types.js";

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UserInputError(
      `${file}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

export function parseManifest(text: string, file: string): RecordingManifest {
  const at = atFile(file);
  const o = object(parseJson(text, file), at, [
    "schemaVersion",
    "kind",
    "profile",
    "connector",
    "samples",
    "seed",
    "break",
    "createdAt",
    "toolSchemas",
    "scenarios",
  ]);
  schemaVersion(o, at, RECORDING_SCHEMA_VERSION);
  requiredString(o, "kind", at, { oneOf: ["cadre-eval-recording"] });
  const tsAt = child(at, "toolSchemas");
  const ts = object(
    o["toolSchemas"] ?? fail(tsAt, "is required"),
    tsAt,
    Object.keys((o["toolSchemas"] as object) ?? {}),
  );
  const toolSchemas: Record<string, string> = {};
  for (const name of Object.keys(ts))
    toolSchemas[name] = requiredString(ts, name, tsAt, { pattern: /^[0-9a-f]{64}$/ });
  const scAt = child(at, "scenarios");
  const scenarios = requiredArray(o, "scenarios", at, { min: 1 }).map((raw, i) => {
    const e = object(raw, child(scAt, i), ["id", "hash", "file"]);
    return {
      id: requiredString(e, "id", child(scAt, i)),
      hash: requiredString(e, "hash", child(scAt, i), { pattern: /^[0-9a-f]{64}$/ }),
      file: requiredString(e, "file", child(scAt, i), { pattern: /^traces\/[a-z0-9][a-z0-9-]*\.json$/ }),
    };
  });
  return {
    schemaVersion: RECORDING_SCHEMA_VERSION,
    kind: "cadre-eval-recording",
    profile: requiredString(o, "profile", at),
    connector: requiredString(o, "connector", at),
    samples: requiredNumber(o, "samples", at, { integer: true, min: 1 }),
    seed: requiredNumber(o, "seed", at, { integer: true, min: 0 }),
    break: o["break"] === null ? null : (string(o, "break", at) as string),
    createdAt: requiredString(o, "createdAt", at),
    toolSchemas,
    scenarios,
  };
}

export async function readRecording(dir: string): Promise<Recording> {
  const root = resolve(dir);
  const manifestFile = join(root, "manifest.json");
  const manifest = parseManifest(
    await readText(manifestFile, "recording manifest (is this a directory written by `cadre eval record`?)"),
    manifestFile,
  );
  const traces = new Map<string, Trace[]>();
  const scenarios: Recording["scenarios"] = [];
  for (const [i, entry] of manifest.scenarios.entries()) {
    const file = join(root, entry.file);
    const { traces: parsed, scenario } = parseScenarioTraces(
      await readText(file, `traces of scenario ${entry.id}`),
      file,
    );
    const entryAt = child(child(atFile(manifestFile), "scenarios"), i);
    if (parsed.scenario.id !== entry.id)
      fail(child(entryAt, "id"), `is "${entry.id}" but ${entry.file} holds scenario "${parsed.scenario.id}"`);
    if (parsed.scenario.hash !== entry.hash)
      fail(child(entryAt, "hash"), `differs from the hash in ${entry.file}`);
    if (parsed.traces.length !== manifest.samples)
      fail(
        child(atFile(file), "traces"),
        `holds ${parsed.traces.length} trace(s); the manifest says ${manifest.samples} sample(s) per scenario`,
      );
    traces.set(entry.id, parsed.traces);
    scenarios.push({ scenario, file, hash: parsed.scenario.hash });
  }
  return { dir: root, manifest, scenarios, traces };
}
