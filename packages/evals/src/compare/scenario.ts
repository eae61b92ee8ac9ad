// Compares one scenario's candidate samples with its baseline samples. Each candidate sample is
// checked on its own, on every behaviour dimension (dimensions.ts); pass^k over those verdicts
// gives the scenario's reliability and flakiness.
import type { Scenario } from "../scenario/types.js";

export type { SampleCheck, SampleVerdict, ScenarioComparison, SideFigures };
import type { Trace } from "../trace/types.js";
import { actionSequence } from "./actions.js";
import { type Dimension, DIMENSION_LABELS, referenceOf, sampleChecks } from "./dimensions.js";
import { mean, median } from "./measures.js";
import { flakiness, passHatK } from "./passk.js";
import type {
  CompareSettings,
  SampleCheck,
  SampleVerdict,
  ScenarioComparison,
  SideFigures,
} from "../report/schema.js";
import { matchesAny, TRAJECTORY_MODES, type TrajectoryMode } from "./trajectory.js";

function sideFigures(traces: Trace[]): SideFigures {
  const hires = traces.flatMap((t) => t.hires);
  const toolHires = hires.filter((h) => h.via === "tool").length;
  const observed = traces.filter((t) => t.systemPrompt.observed);
  const live = traces.filter((t) => t.source === "live");
  const terminals: Record<string, number> = {};
  for (const t of traces) terminals[t.terminal] = (terminals[t.terminal] ?? 0) + 1;
  return {
    samples: traces.length,
    hireCounts: traces.map((t) => t.hires.length),
    medianHires: median(traces.map((t) => t.hires.length)),
    toolCoverage: hires.length === 0 ? null : toolHires / hires.length,
    toolHires,
    httpHires: hires.filter((h) => h.via === "http").length,
    cueTokens: Math.max(0, ...traces.map((t) => t.cue.tokens)),
    systemPromptTokens:
      observed.length === 0 ? null : Math.round(mean(observed.map((t) => t.systemPrompt.tokens))),
    cacheHitRate: mean(traces.filter((t) => t.usage.modelCalls > 0).map((t) => t.usage.cacheHitRate)),
    terminals,
    liveSamples: live.length,
    meanLiveLatencyMs: live.length === 0 ? null : Math.round(mean(live.map((t) => t.latencyMs))),
  };
}

export function compareScenario(
  scenario: Scenario,
  baseline: Trace[],
  candidate: Trace[],
  settings: CompareSettings,
): ScenarioComparison {
  const ref = referenceOf(baseline, settings);
  const allProblems: string[] = [];
  let validHires = 0;
  const jaccards: number[] = [];
  const precisions: number[] = [];

  const samples: SampleVerdict[] = candidate.map((t) => {
    const checked = sampleChecks(t, ref, scenario, settings);
    jaccards.push(checked.jaccard);
    precisions.push(checked.precision);
    validHires += checked.validHires;
    allProblems.push(...checked.problems);
    const checks = checked.checks;
    return { sample: t.sample, seed: t.seed, passed: checks.every((c) => c.pass), checks };
  });

  const n = samples.length;
  const c = samples.filter((s) => s.passed).length;
  const k = Math.min(settings.k, Math.max(1, n));
  const passK = n === 0 ? 0 : passHatK(n, c, k);
  const base = sideFigures(baseline);
  const cand = sideFigures(candidate);
  const delta = cand.cacheHitRate - base.cacheHitRate;
  const cachePass = delta >= -settings.cacheTolerance;
  const behaviourVerdict = n > 0 && passK >= settings.minPassK;
  const failing = new Map<Dimension, number>();
  for (const smp of samples)
    for (const ch of smp.checks) if (!ch.pass) failing.set(ch.name, (failing.get(ch.name) ?? 0) + 1);
  const reasons: string[] = [];
  if (n === 0) reasons.push("no candidate sample");
  if (!behaviourVerdict && n > 0) {
    const first = samples.find((s) => !s.passed)?.checks.find((ch) => !ch.pass);
    reasons.push(
      `pass^${k} ${passK.toFixed(2)} < ${settings.minPassK}: ${[...failing].map(([name, m]) => `${DIMENSION_LABELS[name]} ${m}/${n}`).join(", ")}${first ? ` — e.g. ${DIMENSION_LABELS[first.name]}: ${first.detail}` : ""}`,
    );
  }
  if (!cachePass)
    reasons.push(
      `cache hit rate ${(cand.cacheHitRate * 100).toFixed(1)}% is ${(-delta * 100).toFixed(1)} points below the baseline's ${(base.cacheHitRate * 100).toFixed(1)}% (tolerance ${settings.cacheTolerance * 100} points)`,
    );
  const calledBy = (traces: Trace[], action: string) =>
    traces.filter((t) => actionSequence(t).includes(action)).length;
  const actions = [...new Set([...ref.actions.keys(), ...candidate.flatMap((t) => actionSequence(t))])]
    .sort()
    .map((action) => ({
      action,
      baseline: ref.actions.get(action) ?? 0,
      candidate: calledBy(candidate, action),
    }));
  const totalHires = candidate.reduce((sum, t) => sum + t.hires.length, 0);
  return {
    id: scenario.id,
    title: scenario.title,
    mode: scenario.expectMode,
    baseline: base,
    candidate: cand,
    hireBand: ref.hireBand,
    functionJaccard: mean(jaccards),
    functionPrecision: mean(precisions),
    params: { valid: validHires, total: totalHires, problems: [...new Set(allProblems)] },
    trajectoryMatch: Object.fromEntries(
      TRAJECTORY_MODES.map((m) => [
        m,
        n === 0 ? 0 : candidate.filter((t) => matchesAny(actionSequence(t), ref.sequences, m)).length / n,
      ]),
    ) as Record<TrajectoryMode, number>,
    cache: { baseline: base.cacheHitRate, candidate: cand.cacheHitRate, delta, pass: cachePass },
    samples,
    n,
    c,
    k,
    passAt1: n === 0 ? 0 : c / n,
    passK,
    flakiness: n === 0 ? 0 : flakiness(n, c, k),
    dimensions: (Object.keys(DIMENSION_LABELS) as Dimension[]).map((name) => ({
      name,
      label: DIMENSION_LABELS[name],
      failed: failing.get(name) ?? 0,
    })),
    actions,
    behaviourVerdict,
    verdict: behaviourVerdict && cachePass,
    // Measured or not is the run's to say (compare.ts): until then a scenario claims nothing.
    measured: false,
    result: "not measured",
    passed: null,
    reasons,
  };
}
