// Compares a candidate run with a recorded baseline: every scenario, then the gates.
import { UserInputError } from "@cadre/core";
import type { Recording } from "../recording/types.js";
import { toolSchemaHashes } from "../recording/tool-schemas.js";
import type { Trace } from "../trace/types.js";
import { type EvalReport, REPORT_SCHEMA_VERSION } from "../report/schema.js";
import { type CandidateRun, evaluateGates, type Measurement } from "./gates.js";

export { type EvalReport, REPORT_SCHEMA_VERSION };
import { mean } from "./measures.js";
import { compareScenario } from "./scenario.js";
import { judgeScenario } from "./scenario-result.js";
import { checkCompareSettings, type CompareSettings } from "./settings.js";

function sources(traces: Trace[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of traces) out[t.source] = (out[t.source] ?? 0) + 1;
  return out;
}

function meanObserved(traces: Trace[]): number | null {
  const seen = traces.filter((t) => t.systemPrompt.observed);
  return seen.length === 0 ? null : Math.round(mean(seen.map((t) => t.systemPrompt.tokens)));
}

export function compareRuns(
  baseline: Recording,
  candidate: CandidateRun,
  settings: CompareSettings,
  now = new Date(),
  measurement?: { measurement: Measurement; sensitivity: EvalReport["measurement"]["sensitivity"] },
): EvalReport {
  if (candidate.scenarios.length === 0) throw new UserInputError("the candidate ran no scenario");
  checkCompareSettings(settings);
  const comparisons = candidate.scenarios.map((loaded) =>
    compareScenario(
      loaded.scenario,
      baseline.traces.get(loaded.scenario.id) ?? [],
      candidate.traces.get(loaded.scenario.id) ?? [],
      settings,
    ),
  );
  const {
    gates,
    matrix,
    measurement: meas,
  } = evaluateGates({
    baseline,
    candidate,
    comparisons,
    settings,
    codeSchemas: toolSchemaHashes(),
    ...(measurement ? { measurement: measurement.measurement } : {}),
  });
  const cand = [...candidate.traces.values()].flat();
  const base = [...baseline.traces.values()].flat();
  const hires = cand.flatMap((t) => t.hires);
  const m = baseline.manifest;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: "cadre-eval-report",
    createdAt: now.toISOString(),
    baseline: {
      dir: baseline.dir,
      profile: m.profile,
      connector: m.connector,
      samples: m.samples,
      seed: m.seed,
      createdAt: m.createdAt,
      break: m.break,
    },
    candidate: {
      profile: candidate.profile,
      connector: candidate.connector,
      samples: candidate.samples,
      seed: candidate.seed,
      break: candidate.break,
    },
    settings,
    scenarios: comparisons.map((c) =>
      judgeScenario(c, meas.behaviourMeasured, matrix.find((m) => m.scenario === c.id)?.cells, settings),
    ),
    toolCoverage: hires.length === 0 ? 0 : hires.filter((h) => h.via === "tool").length / hires.length,
    cueTokens: Math.max(0, ...cand.map((t) => t.cue.tokens)),
    baselineCueTokens: Math.max(0, ...base.map((t) => t.cue.tokens)),
    systemPromptTokens: { baseline: meanObserved(base), candidate: meanObserved(cand) },
    cacheHitRate: {
      baseline: mean(base.filter((t) => t.usage.modelCalls > 0).map((t) => t.usage.cacheHitRate)),
      candidate: mean(cand.filter((t) => t.usage.modelCalls > 0).map((t) => t.usage.cacheHitRate)),
    },
    sources: { baseline: sources(base), candidate: sources(cand) },
    measurement: { ...meas, sensitivity: measurement?.sensitivity ?? null },
    gates,
    matrix,
    passed: Object.values(gates).every((g) => g.pass !== false),
    complete: Object.values(gates).every((g) => g.pass === true),
  };
}
