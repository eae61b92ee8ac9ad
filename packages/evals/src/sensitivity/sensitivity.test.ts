// Sensitivity, measured (issue 13, issue 27): the reviewer's known-bad prompt changes, each applied
// as a candidate and run through the real pipeline. Neither the scripted offline CEO nor the
// stand-in (prompt-blind, scripted) reads the prompt: their figures say what plumbing alone catches,
// and behaviour on them is never measured, whatever their score.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_BUILDING_BASELINE_DIR } from "../data/paths.js";
import { evaluateCandidate, recordBaseline } from "../evaluate.js";
import { loadMutations } from "./mutations.js";
import { measureSensitivity, MIN_DETECTED, type SensitivityResult, writeSensitivity } from "./sensitivity.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cadre-sensitivity-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const table = (r: SensitivityResult) => Object.fromEntries(r.mutations.map((m) => [m.id, m.gate]));

describe("sensitivity", () => {
  let standin: SensitivityResult;

  it("the stand-in is scripted: its figure is what plumbing catches, never a sensitivity", async () => {
    standin = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      connector: "standin",
      samples: 1,
      concurrency: 2,
      out: join(root, "standin"),
    });
    expect(standin).toMatchObject({ connector: "standin", source: "scripted", total: 6 });
    expect(standin.reference.kind).toBe("control");
    expect(standin.control).toMatchObject({ detected: false });
    // Prompt-blind: a changed description, cue or team size changes nothing it does.
    const t = table(standin);
    expect(t["tool-forbids-hiring"]).toBeNull();
    expect(t["mode-doc-one-role"]).toBeNull();
    expect(t["cue-irrelevant"]).toBeNull();
    // The wrong mode document is caught by plumbing alone (mode drift), on any connector.
    expect(t["wrong-mode-document"]).toBe("G4");
  }, 300_000);

  it("offline, the scripted CEO is blind to most of them: its real (low) rate, and which it misses", async () => {
    const offline = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      connector: "offline",
      samples: 1,
      concurrency: 2,
      out: join(root, "offline"),
    });
    expect(offline).toMatchObject({ connector: "offline", source: "scripted", total: 6 });
    expect(offline.reference.kind).toBe("baseline");
    // The false-alarm control draws two fresh candidates of the unmutated prompts (other seeds), so
    // it can fail: what it found is reported with the seed, whichever way it went.
    expect(offline.control?.runs.map((r) => r.seed)).toHaveLength(2);
    expect(offline.control?.runs.map((r) => r.seed)).not.toContain(1);
    expect(offline.control?.evidence).toMatch(/^(unmutated prompts, seed \d+: |two unmutated candidates)/);
    expect(offline.detected).toBeLessThan(MIN_DETECTED);
    const t = table(offline);
    // The script ignores the tool descriptions, the cue and the stated team size.
    expect(t["tool-forbids-hiring"]).toBeNull();
    expect(t["mode-doc-one-role"]).toBeNull();
    expect(t["cue-irrelevant"]).toBeNull();
    // The wrong mode document is caught by plumbing alone (mode drift, C4-4), on any connector.
    const wrong = offline.mutations.find((m) => m.id === "wrong-mode-document")!;
    expect(wrong.gate).toBe("G4");
    expect(wrong.evidence).toMatch(
      /mode drift in \d+ sample\(s\): .*cue names "Team Building Phase".*mode document is "Operating Phase"/,
    );
  }, 300_000);

  it("behaviour gates on the stand-in are never measured, even with a record claiming every mutation caught", async () => {
    const baseline = join(root, "standin-baseline");
    await recordBaseline({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      seed: 3,
      concurrency: 2,
      out: baseline,
    });
    const file = join(root, "standin.json");
    await writeSensitivity(file, { ...standin, source: "live", detected: 6, total: 6 });
    const run = await evaluateCandidate({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      concurrency: 2,
      baseline,
      out: join(root, "run-claimed"),
      sensitivityFile: file,
    });
    for (const g of ["G3", "G4", "G5"] as const)
      expect({ g, ...run.report.gates[g] }).toMatchObject({
        g,
        pass: null,
        measured: false,
        source: "scripted",
      });
    expect(run.report.complete).toBe(false);
    expect(run.report.measurement.note).toMatch(
      /^behaviour not measured: the model server is a stand-in, not a model: --connector standin is Cadre's own stand-in/,
    );
  }, 300_000);

  it("the stand-in's verdicts do not depend on the seed", async () => {
    const only = ["empty-single-connector", "partial-team", "revision-requested"];
    const runs = await Promise.all(
      [1, 987654].map((seed) =>
        recordBaseline({
          profile: "semantic",
          connector: "standin",
          samples: 2,
          seed,
          concurrency: 2,
          only,
          out: join(root, `seed-${seed}`),
        }),
      ),
    );
    const hires = (r: (typeof runs)[number]) =>
      [...r.result.traces.values()].flat().map((t) => t.hires.map((h) => h.department));
    expect(hires(runs[0]!)).toEqual(hires(runs[1]!));
  }, 120_000);

  it("operators add mutations as files; a bad file is named with what is wrong", async () => {
    const dir = join(root, "mutations");
    await mkdir(dir);
    await writeFile(
      join(dir, "two-roles.json"),
      JSON.stringify({
        id: "two-roles",
        description: "asks for two roles",
        expectedFailure: "G4",
        modeDocument: { mode: "team-building", find: "three to five roles", replace: "exactly two roles" },
      }),
    );
    const [m] = await loadMutations(dir);
    expect(m?.name).toBe("two-roles");
    expect(m?.modeDocument?.("team-building", "has three to five roles;")).toBe("has exactly two roles;");
    expect(m?.modeDocument?.("operating", "has three to five roles;")).toBe("has three to five roles;");
    await writeFile(join(dir, "bad.json"), JSON.stringify({ id: "bad", colour: "red" }));
    await expect(loadMutations(dir)).rejects.toThrow(/bad\.json: unknown field "colour"/);
  });
});
