// compareScenario on real traces (a real run of one scenario), altered the way a regression or a
// replay would alter them.
import { beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import type { Scenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { compareScenario } from "./scenario.js";
import { DEFAULT_COMPARE_SETTINGS } from "./settings.js";

let scenario: Scenario;
let traces: Trace[];
beforeAll(async () => {
  const run = await runProfile({
    profile: "semantic",
    samples: 2,
    seed: 21,
    only: ["several-connectors-one-not-ready"],
    concurrency: 2,
  });
  scenario = run.scenarios[0]!.scenario;
  traces = run.traces.get(scenario.id)!;
});

const copy = (ts: Trace[]): Trace[] => JSON.parse(JSON.stringify(ts));

describe("comparing one scenario", () => {
  // With two samples both are medians, so each lies in the ±1 band; with more, a run's own outliers
  // can fall outside it — that spread is what pass^k and flakiness report.
  it("a run compared with itself: every sample passes, pass^k 1, flakiness 0, all trajectories match", () => {
    const c = compareScenario(scenario, traces, copy(traces), DEFAULT_COMPARE_SETTINGS);
    expect(c).toMatchObject({ n: 2, c: 2, k: 2, passK: 1, flakiness: 0, verdict: true, reasons: [] });
    // compareScenario alone does not know whether behaviour was measured: it claims no pass.
    expect(c).toMatchObject({ measured: false, passed: null, result: "not measured" });
    expect(c.trajectoryMatch).toEqual({ strict: 1, unordered: 1, subset: 1, superset: 1 });
    expect(c.params.valid).toBe(c.params.total);
    expect(c.candidate.toolCoverage).toBe(1);
  });

  it("a hire on the connector the scenario declares not ready fails the params check, with the reason", () => {
    const bad = copy(traces);
    bad[0]!.hires[0]!.connectorId = "anthropic";
    bad[0]!.hires[0]!.model = "claude-sonnet-4-5-20250929";
    const c = compareScenario(scenario, traces, bad, DEFAULT_COMPARE_SETTINGS);
    const params = c.samples[0]!.checks.find((x) => x.name === "params")!;
    expect(params.pass).toBe(false);
    expect(params.detail).toMatch(/connector "anthropic" is not ready in this scenario/);
    expect(c.params.valid).toBe(c.params.total - 1);
    expect(c.c).toBe(1);
    expect(c.passK).toBe(0); // C(1,2)/C(2,2)
    expect(c.verdict).toBe(false);
    expect(c.reasons[0]).toMatch(/pass\^2 0\.00 < 0\.5: parameter validity 1\/2/);
  });

  it("hires through the legacy HTTP path lower the candidate's tool coverage", () => {
    const viaHttp = copy(traces);
    for (const h of viaHttp[1]!.hires) h.via = "http";
    const c = compareScenario(scenario, traces, viaHttp, DEFAULT_COMPARE_SETTINGS);
    const all = viaHttp.reduce((n, t) => n + t.hires.length, 0);
    expect(c.candidate.httpHires).toBe(viaHttp[1]!.hires.length);
    expect(c.candidate.toolCoverage).toBeCloseTo((all - viaHttp[1]!.hires.length) / all);
  });

  it("replayed and offline samples are not counted as live usage or latency", () => {
    const mixed = copy(traces);
    mixed[0]!.source = "live";
    mixed[0]!.latencyMs = 1000;
    mixed[1]!.source = "replayed";
    mixed[1]!.latencyMs = 5;
    const c = compareScenario(scenario, traces, mixed, DEFAULT_COMPARE_SETTINGS);
    expect(c.candidate.liveSamples).toBe(1);
    expect(c.candidate.meanLiveLatencyMs).toBe(1000);
    expect(c.baseline.liveSamples).toBe(0);
    expect(c.baseline.meanLiveLatencyMs).toBeNull();
  });

  it("a cache hit rate below the baseline beyond the tolerance fails the scenario, behaviour aside", () => {
    const cold = copy(traces);
    for (const t of cold) t.usage.cacheHitRate = Math.max(0, t.usage.cacheHitRate - 0.2);
    const c = compareScenario(scenario, traces, cold, DEFAULT_COMPARE_SETTINGS);
    expect(c.behaviourVerdict).toBe(true);
    expect(c.cache.pass).toBe(false);
    expect(c.verdict).toBe(false);
    expect(c.reasons.join(" ")).toMatch(
      /cache hit rate .* is 20\.0 points below the baseline's .* \(tolerance 5 points\)/,
    );
  });

  it("the tool-call sequence: a reordered one fails strict and passes unordered", () => {
    const reordered = copy(traces);
    const t0 = reordered[0]!;
    const filing = t0.toolCalls.filter((c) => c.name === "file_approval");
    expect(filing.length).toBeGreaterThan(0);
    t0.toolCalls = [...filing, ...t0.toolCalls.filter((c) => c.name !== "file_approval")];
    const strict = compareScenario(scenario, traces, reordered, {
      ...DEFAULT_COMPARE_SETTINGS,
      trajectory: "strict",
    });
    const unordered = compareScenario(scenario, traces, reordered, {
      ...DEFAULT_COMPARE_SETTINGS,
      trajectory: "unordered",
    });
    expect(strict.samples[0]!.checks.find((x) => x.name === "toolCalls")?.pass).toBe(false);
    expect(unordered.samples[0]!.checks.find((x) => x.name === "toolCalls")?.pass).toBe(true);
  });
});
