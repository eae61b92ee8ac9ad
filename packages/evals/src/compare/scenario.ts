// Compares one scenario's candidate samples with its baseline samples. Each candidate sample is
// checked on its own (terminal state, hire count, team functions, parameters, optionally the
// trajectory); pass^k over those verdicts gives the scenario's reliability and flakiness.
import type { Scenario } from "../scenario/types.js";

export type { SampleCheck, SampleVerdict, ScenarioComparison, SideFigures };
import type { Trace } from "../trace/types.js";
import { bestJaccard, functionsOf, mean, median, medianBand, precisionAgainst } from "./measures.js";
import { hireProblems } from "./params.js";
import { flakiness, passHatK } from "./passk.js";
import type {
  CompareSettings,
  SampleCheck,
  SampleVerdict,
  ScenarioComparison,
  SideFigures,
} from "../report/schema.js";
import { matchesAny, TRAJECTORY_MODES, type TrajectoryMode } from "./trajectory.js";

function modal(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? "done";
}

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
  const band = medianBand(
    baseline.map((t) => t.hires.length),
    settings.hireTolerance,
  );
  const baseFunctions = baseline.map((t) => functionsOf(t.hires));
  const baseTrajectories = baseline.map((t) => t.trajectory);
  const expectedTerminal = modal(baseline.map((t) => t.terminal));
  const allProblems: string[] = [];
  let validHires = 0;
  const jaccards: number[] = [];
  const precisions: number[] = [];

  const samples: SampleVerdict[] = candidate.map((t) => {
    const count = t.hires.length;
    const functions = functionsOf(t.hires);
    const j = bestJaccard(functions, baseFunctions);
    const precision = precisionAgainst(functions, baseFunctions);
    jaccards.push(j);
    precisions.push(precision);
    const perHire = t.hires.map((h) => hireProblems(h, scenario, t.ceoRoute).map((p) => `${h.name}: ${p}`));
    validHires += perHire.filter((p) => p.length === 0).length;
    const problems = perHire.flat();
    allProblems.push(...problems);
    const checks: SampleCheck[] = [
      {
        name: "terminal",
        pass: t.terminal === expectedTerminal,
        detail: `${t.terminal} (baseline: ${expectedTerminal})`,
      },
      {
        name: "hireCount",
        pass: count >= band[0] && count <= band[1],
        detail: `${count} hire(s) (baseline band ${band[0]}–${band[1]})`,
      },
      {
        name: "functions",
        // A team of another size built from the baseline's functions is a count question, not a role one.
        pass: precision === 1 || j >= settings.functionJaccard,
        detail: `[${[...functions].join(", ")}]: ${(precision * 100).toFixed(0)}% of them hired by the baseline here, best Jaccard ${j.toFixed(2)} with a baseline team (needs 100% or ≥ ${settings.functionJaccard})`,
      },
      {
        name: "params",
        pass: problems.length === 0,
        detail: problems.length === 0 ? `${count}/${count} hires valid` : problems.join("; "),
      },
    ];
    if (settings.trajectory) {
      const ok = matchesAny(t.trajectory, baseTrajectories, settings.trajectory);
      checks.push({
        name: "trajectory",
        pass: ok,
        detail: `${settings.trajectory}: [${t.trajectory.join(", ")}] ${ok ? "matches" : "matches no"} baseline sample`,
      });
    }
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
  const behaviourPassed = n > 0 && passK >= settings.minPassK;
  const reasons: string[] = [];
  if (n === 0) reasons.push("no candidate sample");
  if (!behaviourPassed && n > 0) {
    const failing = new Map<string, number>();
    for (const s of samples)
      for (const ch of s.checks) if (!ch.pass) failing.set(ch.name, (failing.get(ch.name) ?? 0) + 1);
    const first = samples.find((s) => !s.passed)?.checks.find((ch) => !ch.pass);
    reasons.push(
      `pass^${k} ${passK.toFixed(2)} < ${settings.minPassK}: failing checks ${[...failing].map(([name, m]) => `${name} ${m}/${n}`).join(", ")}${first ? ` — e.g. ${first.name}: ${first.detail}` : ""}`,
    );
  }
  if (!cachePass)
    reasons.push(
      `cache hit rate ${(cand.cacheHitRate * 100).toFixed(1)}% is ${(-delta * 100).toFixed(1)} points below the baseline's ${(base.cacheHitRate * 100).toFixed(1)}% (tolerance ${settings.cacheTolerance * 100} points)`,
    );
  const totalHires = candidate.reduce((sum, t) => sum + t.hires.length, 0);
  return {
    id: scenario.id,
    title: scenario.title,
    mode: scenario.expectMode,
    baseline: base,
    candidate: cand,
    hireBand: band,
    functionJaccard: mean(jaccards),
    functionPrecision: mean(precisions),
    params: { valid: validHires, total: totalHires, problems: [...new Set(allProblems)] },
    trajectoryMatch: Object.fromEntries(
      TRAJECTORY_MODES.map((m) => [
        m,
        n === 0 ? 0 : candidate.filter((t) => matchesAny(t.trajectory, baseTrajectories, m)).length / n,
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
    behaviourPassed,
    passed: behaviourPassed && cachePass,
    reasons,
  };
}
