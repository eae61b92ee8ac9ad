// Writes a suite's result as a recording directory (pretty JSON, stable key order per file).
import { mkdir, writeFile } from "node:fs/promises";
import { UserInputError } from "@cadre/core";
import { join, resolve } from "node:path";
import type { SuiteResult } from "../runner/run-suite.js";
import { toScenarioDocument } from "../scenario/document.js";
import { TRACE_SCHEMA_VERSION, type ScenarioTraces } from "../trace/types.js";
import { toolSchemaHashes } from "./tool-schemas.js";
import { RECORDING_SCHEMA_VERSION, type RecordingManifest } from "./types.js";

/** Valid JSON with one trace per line: compact, and a re-recording diffs sample by sample. */
export function tracesFileText(file: ScenarioTraces): string {
  const head = JSON.stringify({
    schemaVersion: file.schemaVersion,
    kind: file.kind,
    scenario: file.scenario,
  });
  return `${head.slice(0, -1)},"traces":[\n${file.traces.map((t) => JSON.stringify(t)).join(",\n")}\n]}\n`;
}

export async function writeRecording(
  dir: string,
  result: SuiteResult,
  now = new Date(),
): Promise<RecordingManifest> {
  const root = resolve(dir);
  // A scenario whose every sample was skipped (the run's cost limit) has no traces to write.
  const recorded = result.scenarios.filter((l) => (result.traces.get(l.scenario.id) ?? []).length > 0);
  if (recorded.length === 0)
    throw new UserInputError(
      `nothing to record in ${dir}: every sample was skipped (${result.skipped?.[0]?.reason ?? "none ran"})`,
    );
  await mkdir(join(root, "traces"), { recursive: true });
  const manifest: RecordingManifest = {
    schemaVersion: RECORDING_SCHEMA_VERSION,
    kind: "cadre-eval-recording",
    profile: result.profile,
    connector: result.connector,
    samples: result.samples,
    seed: result.seed,
    break: result.break,
    createdAt: now.toISOString(),
    toolSchemas: toolSchemaHashes(),
    ...(result.skipped && result.skipped.length > 0 ? { skipped: result.skipped } : {}),
    scenarios: recorded.map((l) => ({
      id: l.scenario.id,
      hash: l.hash,
      file: `traces/${l.scenario.id}.json`,
    })),
  };
  for (const loaded of recorded) {
    const file: ScenarioTraces = {
      schemaVersion: TRACE_SCHEMA_VERSION,
      kind: "cadre-eval-traces",
      scenario: { id: loaded.scenario.id, hash: loaded.hash, snapshot: toScenarioDocument(loaded.scenario) },
      traces: result.traces.get(loaded.scenario.id) ?? [],
    };
    await writeFile(join(root, "traces", `${loaded.scenario.id}.json`), tracesFileText(file));
  }
  await writeFile(join(root, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
