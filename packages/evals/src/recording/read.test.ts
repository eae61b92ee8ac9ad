// Malformed recordings (a baseline is evidence): each defect is refused with the file and field.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordBaseline } from "../evaluate.js";
import { readRecording } from "./read.js";

let root: string;
let pristine: string;
let dir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cadre-recording-"));
  pristine = join(root, "pristine");
  await recordBaseline({
    profile: "semantic",
    samples: 2,
    seed: 3,
    concurrency: 2,
    only: ["empty-single-connector", "pending-strategy"],
    out: pristine,
  });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
let n = 0;
beforeEach(async () => {
  dir = join(root, `copy-${n++}`);
  await cp(pristine, dir, { recursive: true });
});

async function edit(file: string, change: (doc: any) => void): Promise<void> {
  const path = join(dir, file);
  const doc = JSON.parse(await readFile(path, "utf8"));
  change(doc);
  await writeFile(path, JSON.stringify(doc));
}

const TRACES = "traces/empty-single-connector.json";

describe("reading a recording", () => {
  it("reads back what was recorded: manifest, scenario snapshots, every trace", async () => {
    const r = await readRecording(dir);
    expect(r.manifest).toMatchObject({
      kind: "cadre-eval-recording",
      profile: "semantic",
      connector: "offline",
      samples: 2,
      seed: 3,
      break: null,
    });
    expect(r.manifest.toolSchemas["hire_agent"]).toMatch(/^[0-9a-f]{64}$/);
    expect(r.scenarios.map((s) => s.scenario.id)).toEqual(["empty-single-connector", "pending-strategy"]);
    const [first] = r.traces.get("empty-single-connector")!;
    expect(first).toMatchObject({
      schemaVersion: 1,
      source: "offline",
      terminal: "done",
      modeBefore: "team-building",
      modeAfter: "awaiting-approval",
    });
    expect(first!.hires.every((h) => h.via === "tool")).toBe(true);
    expect(first!.trajectory.at(-1)).toBe("file:approve_ceo_strategy");
    expect(first!.systemPrompt.observed).toBe(true);
    expect(JSON.stringify(first)).not.toMatch(/agt_[0-9a-f]{16}/); // generated ids are normalised away
  });

  const cases: Array<[string, string, (d: any) => void, RegExp]> = [
    ["manifest: not JSON", "manifest.json", () => {}, /manifest\.json: not valid JSON/],
    [
      "manifest: unknown field",
      "manifest.json",
      (d) => (d.sampels = 2),
      /manifest\.json: sampels: unknown field/,
    ],
    [
      "manifest: sample count disagrees with the traces",
      "manifest.json",
      (d) => (d.samples = 3),
      /empty-single-connector\.json: traces: holds 2 trace\(s\); the manifest says 3/,
    ],
    [
      "manifest: scenario hash disagrees with its traces file",
      "manifest.json",
      (d) => (d.scenarios[0].hash = "0".repeat(64)),
      /manifest\.json: scenarios\[0\]\.hash: differs from the hash in traces\/empty-single-connector\.json/,
    ],
    [
      "manifest: tool schema hash is not a hash",
      "manifest.json",
      (d) => (d.toolSchemas.hire_agent = "v1"),
      /manifest\.json: toolSchemas\.hire_agent: "v1" does not match/,
    ],
    [
      "trace: a field of the wrong kind",
      TRACES,
      (d) => (d.traces[1].hires[0].via = "fax"),
      /empty-single-connector\.json: traces\[1\]\.hires\[0\]\.via: must be one of: tool, http, system \(got "fax"\)/,
    ],
    [
      "trace: a missing field",
      TRACES,
      (d) => delete d.traces[0].usage.cacheHitRate,
      /empty-single-connector\.json: traces\[0\]\.usage\.cacheHitRate: is required/,
    ],
    [
      "trace: a value out of range",
      TRACES,
      (d) => (d.traces[0].usage.cacheHitRate = 1.5),
      /traces\[0\]\.usage\.cacheHitRate: must be from 0 to 1, got 1\.5/,
    ],
    [
      "trace: a newer schema version",
      TRACES,
      (d) => (d.traces[0].schemaVersion = 2),
      /traces\[0\]\.schemaVersion: is 2; this build reads version 1/,
    ],
    [
      "trace: belongs to another scenario",
      TRACES,
      (d) => (d.traces[0].scenarioId = "pending-strategy"),
      /traces\[0\]\.scenarioId: is "pending-strategy" but the file is for scenario "empty-single-connector"/,
    ],
    [
      "trace: the scenario snapshot was edited",
      TRACES,
      (d) => (d.scenario.snapshot.company.goal = "Something else"),
      /empty-single-connector\.json: scenario\.hash: does not match the scenario snapshot/,
    ],
    [
      "trace: the scenario snapshot is invalid",
      TRACES,
      (d) => (d.scenario.snapshot.connectors[0].kind = "gemini"),
      /empty-single-connector\.json: scenario\.snapshot\.connectors\[0\]\.kind: must be one of/,
    ],
  ];
  it.each(cases)("%s", async (_label, file, change, message) => {
    if (_label.endsWith("not JSON")) await writeFile(join(dir, file), "{ truncated");
    else await edit(file, change);
    await expect(readRecording(dir)).rejects.toThrow(message);
  });

  it("a directory that is not a recording says what it expected", async () => {
    await expect(readRecording(join(dir, "traces"))).rejects.toThrow(
      /traces\/manifest\.json: cannot read the recording manifest \(is this a directory written by `cadre eval record`\?\)/,
    );
  });
});
