// Reads a recording directory strictly: the manifest, then every traces file it lists, each
// checked against the manifest (ids, hashes, sample counts). Errors name the file and field.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserInputError } from "@cadre/core";
import { atFile, child, fail, parseJson, readAs } from "../data/fields.js";
import { parseScenarioTraces } from "../trace/parse.js";
import type { Trace } from "../trace/types.js";
import { type Recording, type RecordingManifest, RecordingManifestSchema } from "./types.js";

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
  return readAs(RecordingManifestSchema, parseJson(text, file), atFile(file));
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
    const skipped = (manifest.skipped ?? []).filter((s) => s.scenarioId === entry.id).length;
    if (parsed.traces.length !== manifest.samples - skipped)
      fail(
        child(atFile(file), "traces"),
        `holds ${parsed.traces.length} trace(s); the manifest says ${manifest.samples} sample(s) per scenario${skipped ? `, ${skipped} of them skipped` : ""}`,
      );
    traces.set(entry.id, parsed.traces);
    scenarios.push({ scenario, file, hash: parsed.scenario.hash });
  }
  return { dir: root, manifest, scenarios, traces };
}
