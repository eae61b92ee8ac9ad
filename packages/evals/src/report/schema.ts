// The evaluation report (`report.json`, written by `cadre eval run`), as one TypeBox schema: the
// type the comparison builds (compare/*.ts derive theirs from it) and the one the dashboard reads a
// report with (`@cadre/evals/report-schema`: this file depends on TypeBox and @cadre/model only, so
// the browser can load it). A report is evidence: read strictly, every figure where it belongs.
import { CapturedVerdictSchema } from "../capture/schema.js";
import { Nullable, OneOf, parse, SchemaVersion, type Static, describeProblems } from "@cadre/model";
import { Type } from "typebox";
import { TRAJECTORY_MODES } from "../compare/trajectory.js";

export const REPORT_SCHEMA_VERSION = 3;
export const GATE_IDS = ["G1", "G2", "G3", "G4", "G5"] as const;
export type GateId = (typeof GATE_IDS)[number];

const strict = { additionalProperties: false } as const;
const Count = () => Type.Integer({ minimum: 0 });
const Share = () => Type.Number({ minimum: 0, maximum: 1 });
const perGate = <S extends ReturnType<typeof Type.Object>>(cell: S) =>
  Type.Object({ G1: cell, G2: cell, G3: cell, G4: cell, G5: cell }, strict);

export const CompareSettingsSchema = Type.Object(
  {
    k: Type.Integer({
      minimum: 1,
      description: "pass^k is reported for this k (clamped to the number of samples).",
    }),
    minPassK: Share(),
    hireTolerance: Count(),
    functionJaccard: Share(),
    minToolCoverage: Share(),
    minToolStates: Count(),
    maxCueTokens: Count(),
    cacheTolerance: Share(),
    minScenarios: Count(),
    minBehaviourScenarios: Type.Integer({
      minimum: 1,
      description: "G4 gives no PASS on fewer scenarios than this (a failure still fails).",
    }),
    modelCallTolerance: Type.Number({
      minimum: 0,
      description: "Model calls per sample within the baseline median ± this share of it (at least ± 2).",
    }),
    trajectory: OneOf(TRAJECTORY_MODES, {
      description:
        "How each sample's tool-call sequence is matched with the baseline's samples (it is always checked).",
    }),
  },
  strict,
);
export type CompareSettings = Static<typeof CompareSettingsSchema>;

export const SampleCheckSchema = Type.Object(
  {
    name: OneOf([
      "terminal",
      "hireCount",
      "functions",
      "params",
      "approvals",
      "endMode",
      "toolCalls",
      "refused",
      "modelCalls",
    ]),
    pass: Type.Boolean(),
    detail: Type.String(),
  },
  strict,
);
export type SampleCheck = Static<typeof SampleCheckSchema>;

export const SampleVerdictSchema = Type.Object(
  { sample: Count(), seed: Count(), passed: Type.Boolean(), checks: Type.Array(SampleCheckSchema) },
  strict,
);
export type SampleVerdict = Static<typeof SampleVerdictSchema>;

export const SideFiguresSchema = Type.Object(
  {
    samples: Count(),
    hireCounts: Type.Array(Count()),
    medianHires: Type.Number(),
    toolCoverage: Nullable(Share()),
    toolHires: Count(),
    httpHires: Count(),
    cueTokens: Count(),
    systemPromptTokens: Nullable(Type.Number({ minimum: 0 })),
    cacheHitRate: Share(),
    terminals: Type.Record(Type.String(), Count()),
    liveSamples: Count(),
    meanLiveLatencyMs: Nullable(Type.Number({ minimum: 0 })),
  },
  strict,
);
export type SideFigures = Static<typeof SideFiguresSchema>;

export const ScenarioComparisonSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    mode: Type.String(),
    baseline: SideFiguresSchema,
    candidate: SideFiguresSchema,
    hireBand: Type.Tuple([Type.Number(), Type.Number()]),
    functionJaccard: Share(),
    functionPrecision: Share(),
    params: Type.Object({ valid: Count(), total: Count(), problems: Type.Array(Type.String()) }, strict),
    trajectoryMatch: Type.Object(
      { strict: Share(), unordered: Share(), subset: Share(), superset: Share() },
      strict,
    ),
    cache: Type.Object(
      { baseline: Share(), candidate: Share(), delta: Type.Number(), pass: Type.Boolean() },
      strict,
    ),
    samples: Type.Array(SampleVerdictSchema),
    n: Count(),
    c: Count(),
    k: Count(),
    passAt1: Share(),
    passK: Share(),
    flakiness: Share(),
    dimensions: Type.Array(
      Type.Object({ name: Type.String(), label: Type.String(), failed: Count() }, strict),
      { description: "Every behaviour dimension compared, with how many candidate samples failed it." },
    ),
    actions: Type.Array(
      Type.Object({ action: Type.String(), baseline: Count(), candidate: Count() }, strict),
      { description: "Each action (tool) called, with how many baseline and candidate samples called it." },
    ),
    behaviourVerdict: Type.Boolean({ description: "What the behaviour rules computed, measured or not." }),
    verdict: Type.Boolean({ description: "behaviourVerdict and the cache rule." }),
    measured: Type.Boolean({ description: "The run measured behaviour (a model that reads the prompt)." }),
    result: OneOf(["pass", "fail", "plumbing ok", "not measured", "incomplete"], {
      description:
        "What the scenario's row says: pass/fail only when measured; plumbing ok when behaviour was not measured and nothing in the plumbing failed; incomplete when pass^k has fewer than k samples.",
    }),
    passed: Nullable(
      Type.Boolean({ description: "true only when measured and passing; null when there is no verdict." }),
    ),
    reasons: Type.Array(Type.String()),
  },
  strict,
);
export type ScenarioComparison = Static<typeof ScenarioComparisonSchema>;

/** Where a gate's evidence came from: the scripted offline model, a live endpoint, or cassettes. */
export const GATE_SOURCES = ["scripted", "live", "replayed"] as const;
export type GateSource = (typeof GATE_SOURCES)[number];

export const GateResultSchema = Type.Object(
  {
    pass: Nullable(
      Type.Boolean({
        description:
          "true/false when measured; null when the gate could not be measured (behaviour from a scripted model, too few states).",
      }),
    ),
    measured: Type.Boolean({
      description:
        "The verdict rests on evidence of the kind the gate is about (behaviour gates: a model that reads the prompt).",
    }),
    source: OneOf(GATE_SOURCES),
    verdict: Nullable(
      Type.Boolean({
        description:
          "What the gate's rules computed from the samples, measured or not (sensitivity reads this); null: too few states.",
      }),
    ),
    undecided: Nullable(
      OneOf(["states", "scenarios", "samples"], {
        description:
          "Why a measured gate has no verdict: too few hiring states, too few scenarios, or fewer samples than pass^k's k.",
      }),
    ),
    evidence: Type.String(),
  },
  strict,
);
export type GateResult = Static<typeof GateResultSchema>;

/** One cell of the matrix; pass null = the gate does not apply to this scenario. */
export const GateCellSchema = Type.Object(
  { pass: Nullable(Type.Boolean()), evidence: Type.String() },
  strict,
);
export type GateCell = Static<typeof GateCellSchema>;

const Run = {
  profile: Type.String(),
  connector: Type.String(),
  samples: Count(),
  seed: Count(),
  break: Nullable(Type.String()),
};

const Usd = () => Nullable(Type.Number({ minimum: 0 }));

/** How the candidate ran: where its evidence came from, the caps it ran under, what it cost. */
export const RunSectionSchema = Type.Object(
  {
    baselineSource: Type.String({ description: "Connector and model the baseline was recorded on." }),
    candidateSource: Type.String({ description: "Connector and model the candidate ran on." }),
    crossSource: Type.Boolean({
      description:
        "The two differ and --cross-source said to compare anyway (behaviour differences may be the model's).",
    }),
    caps: Nullable(
      Type.Object(
        {
          modelCalls: Count(),
          toolCalls: Count(),
          tokens: Count(),
          costUsd: Type.Number({ minimum: 0 }),
          wallTimeMs: Count(),
        },
        strict,
      ),
    ),
    cost: Type.Object(
      {
        usd: Usd(),
        limitUsd: Usd(),
        trusted: Type.Boolean({
          description: "False: some cost is unknown, so a USD limit could not be held exactly.",
        }),
        unpricedSamples: Count(),
      },
      strict,
    ),
    capped: Type.Record(Type.String(), Count(), { description: "Samples a cap ended, by cap." }),
    skipped: Type.Object({ count: Count(), reason: Nullable(Type.String()) }, strict),
    rateLimit: Nullable(
      Type.Object(
        {
          requests: Count(),
          attempts: Count(),
          rateLimited: Count(),
          retries: Count(),
          gaveUp: Count(),
          initialLimit: Count(),
          lowestLimit: Count(),
          limit: Count(),
        },
        strict,
      ),
    ),
    warnings: Type.Array(Type.String()),
  },
  strict,
);
export type RunSection = Static<typeof RunSectionSchema>;

export const EvalReportSchema = Type.Object(
  {
    schemaVersion: SchemaVersion(REPORT_SCHEMA_VERSION),
    kind: Type.Literal("cadre-eval-report"),
    createdAt: Type.String(),
    baseline: Type.Object({ dir: Type.String(), ...Run, createdAt: Type.String() }, strict),
    candidate: Type.Object(Run, strict),
    settings: CompareSettingsSchema,
    scenarios: Type.Array(ScenarioComparisonSchema),
    toolCoverage: Share(),
    cueTokens: Count(),
    baselineCueTokens: Count(),
    systemPromptTokens: Type.Object(
      { baseline: Nullable(Type.Number({ minimum: 0 })), candidate: Nullable(Type.Number({ minimum: 0 })) },
      strict,
    ),
    cacheHitRate: Type.Object({ baseline: Share(), candidate: Share() }, strict),
    sources: Type.Object(
      { baseline: Type.Record(Type.String(), Count()), candidate: Type.Record(Type.String(), Count()) },
      { ...strict, description: "Samples answered live (usage and latency counted), offline, or replayed." },
    ),
    measurement: Type.Object(
      {
        source: OneOf(GATE_SOURCES),
        behaviourMeasured: Type.Boolean(),
        note: Type.String(),
        sensitivity: Nullable(
          Type.Object(
            {
              connector: Type.String(),
              detected: Count(),
              total: Count(),
              createdAt: Type.String(),
              file: Type.String(),
            },
            strict,
          ),
        ),
      },
      strict,
    ),
    run: Type.Optional(RunSectionSchema),
    gates: perGate(GateResultSchema),
    matrix: Type.Array(Type.Object({ scenario: Type.String(), cells: perGate(GateCellSchema) }, strict)),
    captured: Type.Optional(
      Type.Array(CapturedVerdictSchema, {
        description:
          "Scenarios captured from recorded runs (cadre eval capture), judged against their capture.",
      }),
    ),
    passed: Type.Boolean({ description: "No gate failed (a gate not measured does not fail)." }),
    complete: Type.Boolean({ description: "Every gate was measured and passed." }),
  },
  strict,
);
export type EvalReport = Static<typeof EvalReportSchema>;

export type ReadReport = { ok: true; report: EvalReport } | { ok: false; error: string };

/** Reads the text of a report.json; the error names what is wrong and where. */
export function readEvalReport(text: string): ReadReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const head = value as { kind?: unknown; schemaVersion?: unknown } | null;
  if (typeof head !== "object" || head === null || head.kind !== "cadre-eval-report")
    return {
      ok: false,
      error:
        'not an evaluation report: "kind" must be "cadre-eval-report" (the report.json that `cadre eval run` writes)',
    };
  if (head.schemaVersion !== REPORT_SCHEMA_VERSION)
    return {
      ok: false,
      error: `report schema version ${JSON.stringify(head.schemaVersion)} is not supported (this build reads version ${REPORT_SCHEMA_VERSION})`,
    };
  const parsed = parse(EvalReportSchema, value);
  return parsed.ok
    ? { ok: true, report: parsed.value }
    : { ok: false, error: `not a report this build can read: ${describeProblems(parsed.problems)}` };
}
