// Reads trace files back strictly: a baseline is evidence, so a malformed one is refused with the
// file and the field named, never half-read. The format is trace/types.ts's schemas; the rules
// that span the file (the snapshot's hash and id, one scenario per file) are checked here.
import { type At, atFile, child, fail, parseJson, readAs } from "../data/fields.js";
import { hashOf } from "../data/hash.js";
import { parseScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";
import { type ScenarioTraces, ScenarioTracesSchema, type Trace, TraceSchema } from "./types.js";

export function parseTrace(raw: unknown, at: At): Trace {
  return readAs(TraceSchema, raw, at);
}

/** A traces/<scenario>.json file, with its scenario snapshot parsed. */
export function parseScenarioTraces(
  text: string,
  file: string,
): { traces: ScenarioTraces; scenario: Scenario } {
  const at = atFile(file);
  const raw = parseJson(text, file);
  // The snapshot first, against the scenario format, so that its errors name its own fields.
  const snapshotRaw = (raw as { scenario?: { snapshot?: unknown } } | null)?.scenario?.snapshot;
  const sAt = child(at, "scenario");
  const read = readAs(ScenarioTracesSchema, raw, at);
  const snapshot = parseScenario(
    snapshotRaw ?? fail(child(sAt, "snapshot"), "is required"),
    file,
    child(sAt, "snapshot"),
  );
  const { id, hash } = read.scenario;
  if (hashOf(snapshot) !== hash)
    fail(child(sAt, "hash"), "does not match the scenario snapshot (was the file edited by hand?)");
  if (snapshot.id !== id)
    fail(child(child(sAt, "snapshot"), "id"), `is "${snapshot.id}" but scenario.id is "${id}"`);
  read.traces.forEach((t, i) => {
    if (t.scenarioId !== id)
      fail(
        child(child(child(at, "traces"), i), "scenarioId"),
        `is "${t.scenarioId}" but the file is for scenario "${id}"`,
      );
  });
  if (read.traces.length === 0) fail(child(at, "traces"), "holds no trace");
  return { traces: read, scenario: snapshot };
}
