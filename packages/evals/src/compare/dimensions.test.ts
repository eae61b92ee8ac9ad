// Every behaviour dimension is compared by default, tried as a reviewer would: real candidate runs
// whose CEO is no longer offered a tool (a code change dropping it from the offer), and recorded
// traces that differ from the baseline in one dimension only. The rules under test are the
// comparison's, not a model's judgement, so the measurement is stated as measured (as a live
// connector's would be): with it the gates must FAIL, naming the scenario and the dimension.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PiContext, StreamFn } from "@cadre/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import { readRecording } from "../recording/read.js";
import type { Recording } from "../recording/types.js";
import { writeRecording } from "../recording/write.js";
import { summaryOf } from "../report/summary.js";
import type { Break } from "../runner/breaks.js";
import type { SuiteResult } from "../runner/run-suite.js";
import type { Trace } from "../trace/types.js";
import { compareRuns } from "./compare.js";
import type { Measurement } from "./gates.js";
import { DEFAULT_COMPARE_SETTINGS } from "./settings.js";

const MEASURED: Measurement = {
  source: "live",
  behaviourMeasured: true,
  note: "measured (the test states it: the comparison's rules are under test)",
};
const measured = { measurement: MEASURED, sensitivity: null };

/** A code change that drops a tool from every CEO offer (the request the model sees loses it). */
const dropTool = (tool: string): Break => ({
  name: `drop-${tool}`,
  description: `${tool} is no longer offered to the CEO`,
  expectedFailure: "G3",
  wrapStream:
    (inner: StreamFn): StreamFn =>
    (model, context: PiContext, options) =>
      inner(model, { ...context, tools: (context.tools ?? []).filter((t) => t.name !== tool) }, options),
});

const options = { profile: "semantic", samples: 3, seed: 11, concurrency: 2 };
let dir: string;
let baseline: Recording;
let same: SuiteResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-dimensions-"));
  same = await runProfile(options);
  await writeRecording(join(dir, "baseline"), same);
  baseline = await readRecording(join(dir, "baseline"));
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const copy = (run: SuiteResult): SuiteResult => ({
  ...run,
  traces: new Map([...run.traces].map(([id, ts]) => [id, JSON.parse(JSON.stringify(ts)) as Trace[]])),
});

const failingDimensions = (report: ReturnType<typeof compareRuns>, id: string) =>
  summaryOf(report)
    .scenarios.find((s) => s.id === id)
    ?.failing.map((d) => d.label);

describe("the comparison sees every behaviour dimension by default", () => {
  it("an unchanged candidate: G3 passes and no scenario differs in approvals, end mode or tool calls", () => {
    const report = compareRuns(baseline, copy(same), DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    expect(report.gates.G3.pass).toBe(true);
    expect(report.gates.G3.evidence).not.toMatch(/not offered/);
    for (const s of report.scenarios)
      expect(s.dimensions.filter((d) => d.failed > 0).map((d) => d.label)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/approvals filed|end mode|tool calls/)]),
      );
  });

  it("a CEO no longer offered file_approval files no strategy: G3 and G4 fail, naming the scenario and 'approvals filed'", async () => {
    const candidate = await runProfile({ ...options, mutation: dropTool("file_approval") });
    const filed = [...candidate.traces.values()].flat().flatMap((t) => t.approvalsFiled);
    expect(filed.filter((a) => a.type === "approve_ceo_strategy")).toEqual([]);
    const report = compareRuns(baseline, candidate, DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    expect(report.gates.G4.pass).toBe(false);
    expect(report.gates.G4.evidence).toMatch(/empty-no-goal \(pass\^3 0\.00 < 0\.5: .*approvals filed 3\/3/);
    expect(report.gates.G3.pass).toBe(false);
    expect(report.gates.G3.evidence).toMatch(/empty-no-goal \(.*file_approval called in 0\/3 candidate/);
    expect(failingDimensions(report, "empty-no-goal")).toEqual(
      expect.arrayContaining(["approvals filed", "tool calls"]),
    );
    const row = summaryOf(report).scenarios.find((s) => s.id === "empty-no-goal")!;
    expect(row).toMatchObject({ passed: false, result: "fail" });
    // The offer is code: on a scripted run too (behaviour not measured) G3 fails, as plumbing.
    const scripted = compareRuns(baseline, candidate, DEFAULT_COMPARE_SETTINGS);
    expect(scripted.measurement.behaviourMeasured).toBe(false);
    expect(scripted.gates.G3).toMatchObject({ pass: false, measured: false });
    expect(scripted.gates.G3.evidence).toMatch(
      /a tool the baseline calls is not offered to the candidate: empty-no-goal \(file_approval\)/,
    );
  }, 300_000);

  it("a candidate that never calls a tool the baseline calls (dropped from the operating offer) fails G3 and G4 on tool calls", async () => {
    const calls = [...same.traces.get("operating-company")!].flatMap((t) => t.toolCalls.map((c) => c.name));
    expect(calls).toContain("list_my_tasks");
    const candidate = await runProfile({
      ...options,
      only: ["operating-company"],
      mutation: dropTool("list_my_tasks"),
    });
    const report = compareRuns(baseline, candidate, DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    expect(report.gates.G3.pass).toBe(false);
    expect(report.gates.G3.evidence).toMatch(
      /operating-company \(tool calls: .*list_my_tasks called in 0\/3/,
    );
    expect(report.gates.G4.pass).toBe(false);
    expect(report.gates.G4.evidence).toMatch(
      /operating-company .*tool calls 3\/3.*never calls .*list_my_tasks/,
    );
  }, 300_000);

  it("a candidate that ends in another mode fails G4 on 'end mode' in that scenario, and nowhere else", () => {
    const unchanged = compareRuns(baseline, copy(same), DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    const candidate = copy(same);
    for (const t of candidate.traces.get("partial-team")!) t.modeAfter = "team-building";
    const report = compareRuns(baseline, candidate, DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    expect(report.gates.G4.pass).toBe(false);
    expect(report.gates.G4.evidence).toMatch(
      /partial-team \(pass\^3 0\.00 < 0\.5: end mode 3\/3 — e\.g\. end mode: ends in team-building \(baseline ends in awaiting-approval/,
    );
    expect(failingDimensions(report, "partial-team")).toEqual(["end mode"]);
    const others = (r: typeof report) =>
      r.scenarios.filter((s) => s.id !== "partial-team").map((s) => s.result);
    expect(others(report)).toEqual(others(unchanged));
  });

  it("filing an approval type the baseline never files here fails 'approvals filed'", () => {
    const candidate = copy(same);
    const t = candidate.traces.get("partial-team")![0]!;
    t.approvalsFiled.push({ type: "hire_agent", title: "Hire a CFO", status: "pending", via: "tool" });
    const report = compareRuns(baseline, candidate, DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    const sample = report.scenarios.find((s) => s.id === "partial-team")!.samples[0]!;
    const check = sample.checks.find((c) => c.name === "approvals")!;
    expect(check.pass).toBe(false);
    expect(check.detail).toMatch(/filed 1 hire_agent, which the baseline never files here/);
  });

  it("more refused calls and more model calls than the baseline's band fail their dimensions", () => {
    const candidate = copy(same);
    const t = candidate.traces.get("partial-team")![0]!;
    const call = t.toolCalls[0]!;
    for (let i = 0; i < 4; i++) t.toolCalls.unshift({ ...call, ok: false, result: "refused" });
    t.usage.modelCalls += 20;
    const report = compareRuns(baseline, candidate, DEFAULT_COMPARE_SETTINGS, new Date(), measured);
    const checks = report.scenarios.find((s) => s.id === "partial-team")!.samples[0]!.checks;
    expect(checks.find((c) => c.name === "refused")).toMatchObject({ pass: false });
    expect(checks.find((c) => c.name === "refused")!.detail).toMatch(/^4 refused call\(s\), 4 retried/);
    expect(checks.find((c) => c.name === "modelCalls")).toMatchObject({ pass: false });
  });

  it("--trajectory chooses the match mode: an extra call passes the default superset, fails strict", () => {
    const candidate = copy(same);
    for (const t of candidate.traces.get("partial-team")!)
      t.toolCalls.unshift({ name: "list_my_tasks", args: {}, ok: true, result: "[]" });
    const check = (trajectory: "superset" | "strict") =>
      compareRuns(baseline, candidate, { ...DEFAULT_COMPARE_SETTINGS, trajectory }, new Date(), measured)
        .scenarios.find((s) => s.id === "partial-team")!
        .samples[0]!.checks.find((c) => c.name === "toolCalls")!;
    expect(DEFAULT_COMPARE_SETTINGS.trajectory).toBe("superset");
    expect(check("superset").pass).toBe(true);
    expect(check("strict").pass).toBe(false);
  });
});
