// Sensitivity as mutation testing: generated mutants run through the real pipeline as candidates;
// each is killed by a named gate (and scenario) or survives. Neither the scripted offline CEO nor
// the stand-in reads the prompt: their figures say what plumbing alone catches, and a record of
// theirs never lets behaviour count, whatever it claims.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_BUILDING_BASELINE_DIR } from "../data/paths.js";
import { evaluateCandidate, recordBaseline } from "../evaluate.js";
import { perfectRecord } from "../testing/records.js";
import { generateMutants } from "./generate.js";
import { loadMutations } from "./mutations.js";
import {
  insensitivity,
  measureSensitivity,
  type SensitivityResult,
  writeSensitivity,
} from "./sensitivity.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cadre-sensitivity-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const result = (r: SensitivityResult, prefix: string) => r.mutants.find((m) => m.id.startsWith(prefix))!;

describe("sensitivity", () => {
  it("offline: each mutant is killed by a named gate and scenario or survives; the score is not a measurement", async () => {
    const offline = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      connector: "offline",
      samples: 1,
      concurrency: 2,
      out: join(root, "offline"),
      selection: { operators: ["drop-offer", "require-optional", "delete-line"], limit: 6 },
    });
    expect(offline).toMatchObject({ connector: "offline", source: "scripted", measured: false, total: 6 });
    expect(offline.note).toMatch(/^behaviour not measured: the offline model is scripted/);
    // The false-alarm control draws two fresh candidates of the unmutated prompts (other seeds), so
    // it can fail: what it found is reported with the seed, whichever way it went.
    expect(offline.control?.runs.map((r) => r.seed)).toHaveLength(2);
    expect(offline.control?.runs.map((r) => r.seed)).not.toContain(1);
    expect(offline.control?.evidence).toMatch(/^(unmutated prompts, seed \d+: |two unmutated candidates)/);
    for (const m of offline.mutants) {
      expect(m.diff).toMatch(/^--- /);
      expect(m.scenarios.length).toBeGreaterThan(0);
      expect(Boolean(m.killedBy) !== Boolean(m.survived)).toBe(true);
    }
    // Plumbing alone sees a tool the hiring states no longer offer, and a schema the code does not have.
    expect(result(offline, "drop-offer-team-building-hire-agent").killedBy).toMatchObject({ gate: "G3" });
    expect(result(offline, "drop-offer-team-building-hire-agent").killedBy?.scenario).toMatch(/^[a-z0-9-]+$/);
    expect(result(offline, "require-optional-hire-agent-department").killedBy).toMatchObject({ gate: "G2" });
    // A team-building change runs only where a wake starts in team-building.
    expect(result(offline, "drop-offer-team-building-hire-agent").scenarios).toContain(
      "empty-single-connector",
    );
    expect(result(offline, "drop-offer-team-building-hire-agent").scenarios).not.toContain(
      "operating-company",
    );
    expect(offline.score).toBe(offline.killed / (offline.total - offline.equivalent));
    expect(insensitivity(offline)).toMatch(/scripted answers/);
  }, 300_000);

  it("a cue replaced by another phase's reaches the wake and is killed by mode drift, naming the scenario", async () => {
    const cue = generateMutants(1).find((m) => m.id.startsWith("replace-cue-team-building"))!;
    expect(cue.description).toMatch(/replaced by the .* Phase cue/);
    const r = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      samples: 1,
      concurrency: 2,
      out: join(root, "cue"),
      mutants: [cue],
    });
    expect(r.mutants[0]?.killedBy).toMatchObject({
      gate: "G4",
      scenario: expect.stringMatching(/^[a-z0-9-]+$/),
      evidence: expect.stringMatching(/mode drift|Phase/),
    });
  }, 300_000);

  it("the stand-in: its record says behaviour is not measured, and a record claiming every kill lifts no stand-in run", async () => {
    const standin = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      connector: "standin",
      samples: 1,
      concurrency: 2,
      out: join(root, "standin"),
      selection: { operators: ["drop-offer", "extend-cue"], limit: 3 },
    });
    expect(standin).toMatchObject({ connector: "standin", source: "scripted", measured: false });
    expect(standin.note).toMatch(/the model server is a stand-in, not a model/);
    expect(standin.reference.kind).toBe("control");
    expect(standin.control).toMatchObject({ detected: false });

    const baseline = join(root, "standin-baseline");
    await recordBaseline({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      seed: 3,
      concurrency: 2,
      out: baseline,
    });
    const file = join(root, "claimed.json");
    const {
      mutants: _m,
      killed: _k,
      total: _t,
      equivalent: _e,
      score: _s,
      operators: _o,
      ...facts
    } = standin;
    await writeSensitivity(file, perfectRecord({ ...facts, seed: 3 }));
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

  it("operators add mutations as files: run beside the generated set, listed, not scored", async () => {
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
    expect(m).toMatchObject({ id: "two-roles", operator: "file", modes: ["team-building"] });
    expect(m?.edit.modeDocument?.("team-building", "x")).toContain("has exactly two roles;");
    expect(m?.edit.modeDocument?.("operating", "unchanged")).toBe("unchanged");
    expect(m?.diff).toMatch(/\+.*exactly two roles/);
    const r = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      samples: 1,
      concurrency: 2,
      out: join(root, "own"),
      selection: { operators: ["drop-offer"], limit: 1 },
      own: [m!],
    });
    expect(r.mutants.map((x) => [x.id, x.own ?? false])).toEqual([
      [expect.stringMatching(/^drop-offer-/), false],
      ["two-roles", true],
    ]);
    expect(r.total).toBe(1);

    await writeFile(join(dir, "bad.json"), JSON.stringify({ id: "bad", colour: "red" }));
    await expect(loadMutations(dir)).rejects.toThrow(/bad\.json: unknown field "colour"/);
    await writeFile(
      join(dir, "bad.json"),
      JSON.stringify({
        id: "bad",
        modeDocument: { mode: "team-building", find: "no such text", replace: "x" },
      }),
    );
    await expect(loadMutations(dir)).rejects.toThrow(
      /bad\.json: modeDocument\.find: the team-building document has no "no such text"/,
    );
  }, 300_000);
});
