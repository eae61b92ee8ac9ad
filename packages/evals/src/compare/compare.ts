// Compares a candidate run with a recorded baseline: every scenario, then the gates.
import { UserInputError } from "@cadre/core";
import type { Recording } from "../recording/types.js";
import { toolSchemaHashes } from "../recording/tool-schemas.js";
import type { Trace } from "../trace/types.js";
import { type CandidateRun, evaluateGates, type GateCell, type GateId, type GateResult } from "./gates.js";
import { mean } from "./measures.js";
import { compareScenario, type ScenarioComparison } from "./scenario.js";
import type { CompareSettings } from "./settings.js";

export const REPORT_SCHEMA_VERSION = 1;

export interface EvalReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  kind: "cadre-eval-report";
  createdAt: string;
  baseline: {
    dir: string;
    profile: string;
    connector: string;
    samples: number;
    seed: number;
    createdAt: string;
    break: string | null;
  };
  candidate: { profile: string; connector: string; samples: number; seed: number; break: string | null };
  settings: CompareSettings;
  scenarios: ScenarioComparison[];
  /** Candidate hires through hire_agent / all candidate hires (0 when none was made). */
  toolCoverage: number;
  /** Longest candidate initial cue, o200k tokens. */
  cueTokens: number;
  baselineCueTokens: number;
  systemPromptTokens: { baseline: number | null; candidate: number | null };
  cacheHitRate: { baseline: number; candidate: number };
  /** Samples answered live (usage and latency counted), offline, or replayed from cassettes. */
  sources: { baseline: Record<string, number>; candidate: Record<string, number> };
  gates: Record<GateId, GateResult>;
  matrix: Array<{ scenario: string; cells: Record<GateId, GateCell> }>;
  passed: boolean;
}

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
): EvalReport {
  if (candidate.scenarios.length === 0) throw new UserInputError("the candidate ran no scenario");
  const comparisons = candidate.scenarios.map((loaded) =>
    compareScenario(
      loaded.scenario,
      baseline.traces.get(loaded.scenario.id) ?? [],
      candidate.traces.get(loaded.scenario.id) ?? [],
      settings,
    ),
  );
  const { gates, matrix } = evaluateGates({
    baseline,
    candidate,
    comparisons,
    settings,
    codeSchemas: toolSchemaHashes(),
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
    scenarios: comparisons,
    toolCoverage: hires.length === 0 ? 0 : hires.filter((h) => h.via === "tool").length / hires.length,
    cueTokens: Math.max(0, ...cand.map((t) => t.cue.tokens)),
    baselineCueTokens: Math.max(0, ...base.map((t) => t.cue.tokens)),
    systemPromptTokens: { baseline: meanObserved(base), candidate: meanObserved(cand) },
    cacheHitRate: {
      baseline: mean(base.filter((t) => t.usage.modelCalls > 0).map((t) => t.usage.cacheHitRate)),
      candidate: mean(cand.filter((t) => t.usage.modelCalls > 0).map((t) => t.usage.cacheHitRate)),
    },
    sources: { baseline: sources(base), candidate: sources(cand) },
    gates,
    matrix,
    passed: Object.values(gates).every((g) => g.pass),
  };
}
