// Reports never say PASS for something unmeasured: scenario rows of a scripted run say
// "plumbing ok", G4 gives no PASS on too few scenarios or with fewer samples than pass^k's k, the
// pass threshold cannot be lowered below one half, and the false-alarm control draws independent
// candidates instead of comparing a run with itself.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import { readRecording } from "../recording/read.js";
import type { Recording } from "../recording/types.js";
import { writeRecording } from "../recording/write.js";
import { gateMark } from "../report/format.js";
import { renderHtml } from "../report/html.js";
import { renderMarkdown } from "../report/markdown.js";
import { summaryOf } from "../report/summary.js";
import { renderTerminal } from "../report/terminal.js";
import type { SuiteResult } from "../runner/run-suite.js";
import { controlSeeds, falseAlarmControl } from "../sensitivity/control.js";
import type { Trace } from "../trace/types.js";
import { compareRuns } from "./compare.js";
import type { Measurement } from "./gates.js";
import { DEFAULT_COMPARE_SETTINGS } from "./settings.js";

const MEASURED: Measurement = {
  source: "live",
  behaviourMeasured: true,
  note: "measured (the test states it: the report's rules are under test)",
};
const measured = { measurement: MEASURED, sensitivity: null };

let dir: string;
let baseline: Recording;
let run: SuiteResult;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-no-false-pass-"));
  // Two samples: both are medians, so a run compared with itself holds every dimension.
  run = await runProfile({ profile: "semantic", samples: 2, seed: 9, concurrency: 2 });
  await writeRecording(join(dir, "baseline"), run);
  baseline = await readRecording(join(dir, "baseline"));
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const copy = (r: SuiteResult, only?: string[]): SuiteResult => ({
  ...r,
  scenarios: only ? r.scenarios.filter((s) => only.includes(s.scenario.id)) : r.scenarios,
  traces: new Map(
    [...r.traces]
      .filter(([id]) => !only || only.includes(id))
      .map(([id, ts]) => [id, JSON.parse(JSON.stringify(ts)) as Trace[]]),
  ),
});
const k2 = { ...DEFAULT_COMPARE_SETTINGS, k: 2 };

describe("no PASS for what was not measured", () => {
  it("a scripted run's scenario rows say 'plumbing ok', never PASS, in every report and in --json", () => {
    const report = compareRuns(baseline, copy(run), k2);
    expect(report.measurement.behaviourMeasured).toBe(false);
    expect(report.scenarios.map((s) => s.result)).toEqual(report.scenarios.map(() => "plumbing ok"));
    expect(summaryOf(report).scenarios.every((s) => s.passed === null && s.measured === false)).toBe(true);
    const rows = renderTerminal(report)
      .split("\n")
      .filter((l) => /\(k=\d+, \d+\/\d+\)/.test(l));
    expect(rows).toHaveLength(report.scenarios.length);
    for (const row of rows) expect(row).toMatch(/ plumbing ok /);
    for (const row of rows) expect(row).not.toMatch(/PASS/);
    const md = renderMarkdown(report);
    const mdScenarios = md.slice(md.indexOf("## Scenarios"), md.indexOf("Tool-call sequence match"));
    expect(mdScenarios).toContain("plumbing ok");
    expect(mdScenarios).not.toMatch(/PASS/);
    const html = renderHtml(report);
    const htmlScenarios = html.slice(html.indexOf("<h2>Scenarios</h2>"), html.indexOf("<h2>pass^k"));
    expect(htmlScenarios).not.toMatch(/PASS|class="pass"/);
    // The same run measured reads PASS: the label follows the measurement, not the data.
    const same = compareRuns(baseline, copy(run), k2, new Date(), measured);
    expect(same.scenarios.every((s) => s.result === "pass" && s.passed === true)).toBe(true);
    // The gates count what the rules computed (a verdict), whatever the rows may claim.
    expect(report.gates.G5.evidence).toMatch(/16\/16 scenarios without regression/);
  });

  it("a plumbing failure still reads FAIL on a scripted run (an invalid hire)", () => {
    const bad = copy(run);
    const t = bad.traces.get("partial-team")![0]!;
    t.hires[0]!.connectorId = "nowhere";
    const row = compareRuns(baseline, bad, k2).scenarios.find((s) => s.id === "partial-team")!;
    expect(row).toMatchObject({ result: "fail", passed: false, measured: false });
  });

  it("fewer samples than k: 'pass^k needs k samples', no behaviour gate passes, the run is incomplete", () => {
    const report = compareRuns(baseline, copy(run), DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    expect(report.gates.G4).toMatchObject({
      pass: null,
      measured: true,
      verdict: true,
      undecided: "samples",
    });
    expect(report.gates.G4.evidence).toMatch(/pass\^3 needs 3 samples: 16 scenario\(s\) ran 2 .*incomplete/);
    expect(report.gates.G5.pass).toBeNull();
    expect(gateMark(report.gates.G4)).toBe("INCOMPLETE");
    expect(renderTerminal(report)).toMatch(
      /^RESULT: no gate failed; G4, G5 without a verdict \(incomplete; /m,
    );
    expect(report.complete).toBe(false);
    expect(report.scenarios.every((s) => s.result === "incomplete" && s.passed === null)).toBe(true);
    // A failure is still a failure with too few samples.
    const broken = copy(run);
    for (const t of broken.traces.get("partial-team")!) t.modeAfter = "team-building";
    const failed = compareRuns(baseline, broken, DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    expect(failed.gates.G4.pass).toBe(false);
    // With k = samples the same run passes: the rule is about the samples, not the data.
    expect(compareRuns(baseline, copy(run), k2, new Date(), measured).gates.G4.pass).toBe(true);
  });

  it("G4 needs 8 scenarios to pass: on 3 it says 'not enough scenarios', and a failure still fails", () => {
    const three = ["empty-no-goal", "partial-team", "small-size-limit"];
    const report = compareRuns(baseline, copy(run, three), k2, new Date(), measured);
    expect(report.gates.G4).toMatchObject({ pass: null, verdict: null, undecided: "scenarios" });
    expect(report.gates.G4.evidence).toMatch(/not enough scenarios: the run holds 3; G4 needs 8 to pass/);
    expect(gateMark(report.gates.G4)).toBe("NOT ENOUGH SCENARIOS");
    expect(renderTerminal(report)).toMatch(/^G4 +NOT ENOUGH SCENARIOS/m);
    const broken = copy(run, three);
    for (const t of broken.traces.get("partial-team")!) t.modeAfter = "team-building";
    expect(compareRuns(baseline, broken, k2, new Date(), measured).gates.G4.pass).toBe(false);
    const eight = run.scenarios.slice(0, 8).map((s) => s.scenario.id);
    expect(compareRuns(baseline, copy(run, eight), k2, new Date(), measured).gates.G4.pass).toBe(true);
  });

  it("--min-pass is bounded to [0.5, 1]: anything else is refused with what is allowed", () => {
    for (const minPassK of [0, 0.3, 1.2])
      expect(() => compareRuns(baseline, copy(run), { ...k2, minPassK })).toThrow(
        /min-pass must be a number from 0\.5 to 1 \(got [\d.]+\)/,
      );
    expect(() => compareRuns(baseline, copy(run), { ...k2, minPassK: 0.5 })).not.toThrow();
  });
});

describe("the false-alarm control", () => {
  it("runs two independent candidates, on seeds the reference did not use, against the reference", async () => {
    const seeds: number[] = [];
    const control = await falseAlarmControl(
      baseline,
      async (seed) => {
        seeds.push(seed);
        return copy(run);
      },
      k2,
    );
    expect(seeds).toEqual(controlSeeds(baseline.manifest.seed));
    expect(new Set([...seeds, baseline.manifest.seed]).size).toBe(3);
    expect(control.runs.map((r) => r.seed)).toEqual(seeds);
    expect(control.detected).toBe(false);
  });

  it("a gate that fails an unmutated candidate is a false alarm, named with its seed", async () => {
    const [, second] = controlSeeds(baseline.manifest.seed);
    const control = await falseAlarmControl(
      baseline,
      async (seed) => {
        const candidate = copy(run);
        if (seed === second) for (const t of candidate.traces.get("partial-team")!) t.modeAfter = "operating";
        return candidate;
      },
      k2,
    );
    expect(control).toMatchObject({ detected: true, gate: "G4" });
    expect(control.evidence).toMatch(
      new RegExp(`^unmutated prompts, seed ${second}: .*partial-team.*end mode`),
    );
    expect(control.runs.map((r) => r.detected)).toEqual([false, true]);
  });
});
