// Sensitivity, measured (issue 13): the reviewer's known-bad prompt changes, each applied as a
// candidate and run through the real pipeline. Against the prompt-reading stand-in (a loopback
// OpenAI-compatible server whose rule-based policy reads the cue, the mode document and the tool
// descriptions) the gates must catch at least 5 of 6; against the scripted offline CEO they do
// not, and saying so is the point.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_BUILDING_BASELINE_DIR } from "../data/paths.js";
import { evaluateCandidate, recordBaseline } from "../evaluate.js";
import { BUILTIN_MUTATIONS, loadMutations } from "./mutations.js";
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

  it("the prompt-reading stand-in: every built-in mutation is caught, and the unmutated prompt is not", async () => {
    standin = await measureSensitivity({
      baseline: TEAM_BUILDING_BASELINE_DIR,
      connector: "standin",
      samples: 1,
      concurrency: 2,
      out: join(root, "standin"),
    });
    expect(standin).toMatchObject({ connector: "standin", source: "live", total: 6 });
    expect(standin.reference.kind).toBe("control");
    expect(standin.control).toMatchObject({ detected: false });
    expect(standin.detected).toBeGreaterThanOrEqual(MIN_DETECTED);
    // Which gate catches which mutation (the table the README prints).
    expect(table(standin)).toEqual({
      "tool-forbids-hiring": "G3",
      "mode-doc-one-role": "G4",
      "mode-doc-no-hiring-step": "G3",
      "cue-irrelevant": "G3",
      "wrong-mode-document": "G3",
      "tool-renamed-in-prose": "G3",
    });
    const oneRole = standin.mutations.find((m) => m.id === "mode-doc-one-role")!;
    expect(oneRole.evidence).toMatch(/hireCount: 1 hire\(s\)/);
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
    expect(offline.control?.detected).toBe(false);
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

  it("behaviour gates on a live connector count as measured only with its sensitivity on record", async () => {
    const baseline = join(root, "standin-baseline");
    await recordBaseline({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      seed: 3,
      concurrency: 2,
      out: baseline,
    });
    const none = await evaluateCandidate({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      concurrency: 2,
      baseline,
      out: join(root, "run-none"),
      sensitivityFile: join(root, "missing.json"),
    });
    expect(none.report.gates.G3).toMatchObject({
      pass: null,
      measured: false,
      source: "live",
      verdict: true,
    });
    expect(none.report.gates.G3.evidence).toMatch(/connector standin has no sensitivity record/);

    const file = join(root, "standin.json");
    await writeSensitivity(file, standin);
    const measured = await evaluateCandidate({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      concurrency: 2,
      baseline,
      out: join(root, "run-measured"),
      sensitivityFile: file,
    });
    for (const g of ["G1", "G2", "G3", "G4", "G5"] as const)
      expect({ g, ...measured.report.gates[g] }).toMatchObject({
        g,
        pass: true,
        measured: true,
        source: "live",
      });
    expect(measured.report.complete).toBe(true);
    expect(measured.report.measurement.note).toMatch(
      /a rule-based stand-in that reads the prompt, not a model's judgement/,
    );

    // The reviewer's first experiment, on a connector that reads the prompt: the gate fails.
    const forbidding = await evaluateCandidate({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      concurrency: 2,
      mutation: BUILTIN_MUTATIONS.find((m) => m.name === "tool-forbids-hiring")!,
      baseline,
      out: join(root, "run-forbidding"),
      sensitivityFile: file,
    });
    expect(forbidding.report.gates.G3).toMatchObject({ pass: false, measured: true });
    expect(forbidding.report.passed).toBe(false);

    // A weak sensitivity leaves behaviour unmeasured.
    const weak = join(root, "weak.json");
    await writeSensitivity(weak, { ...standin, detected: 3 });
    const unsure = await evaluateCandidate({
      profile: "semantic",
      connector: "standin",
      samples: 1,
      concurrency: 2,
      only: ["empty-single-connector"],
      baseline,
      out: join(root, "run-weak"),
      sensitivityFile: weak,
    });
    expect(unsure.report.gates.G4).toMatchObject({ pass: null, measured: false });
    expect(unsure.report.gates.G4.evidence).toMatch(
      /sensitivity of 3\/6 known-bad mutations detected; ≥5\/6 is required/,
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
