// The one-line JSON summary of `cadre eval run --json` (SPEC §4): { scenarios: [{ id, passed, … }],
// toolCoverage, cueTokens, gates: { G1: { pass, evidence }, … } } plus the figures behind them.
import type { EvalReport } from "../compare/compare.js";
import type { ReportFiles } from "./write.js";

export function summaryOf(report: EvalReport, files?: ReportFiles) {
  return {
    scenarios: report.scenarios.map((s) => ({
      id: s.id,
      // null unless behaviour was measured: a scripted run's scenario never reads as passed.
      passed: s.passed,
      result: s.result,
      measured: s.measured,
      verdict: s.verdict,
      failing: s.dimensions.filter((d) => d.failed > 0),
      passK: s.passK,
      k: s.k,
      flakiness: s.flakiness,
      samples: { passed: s.c, total: s.n },
      hires: {
        baselineMedian: s.baseline.medianHires,
        candidateMedian: s.candidate.medianHires,
        band: s.hireBand,
      },
      functionJaccard: s.functionJaccard,
      functionPrecision: s.functionPrecision,
      params: { valid: s.params.valid, total: s.params.total },
      toolCoverage: s.candidate.toolCoverage,
      cacheDelta: s.cache.delta,
      reasons: s.reasons,
    })),
    ...(report.captured ? { captured: report.captured } : {}),
    toolCoverage: report.toolCoverage,
    cueTokens: report.cueTokens,
    baselineCueTokens: report.baselineCueTokens,
    systemPromptTokens: report.systemPromptTokens,
    cacheHitRate: report.cacheHitRate,
    ...(report.run ? { run: report.run } : {}),
    gates: report.gates,
    passed: report.passed,
    ...(files ? { report: files } : {}),
  };
}
