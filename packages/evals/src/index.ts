// @cadre/evals: the behaviour-evaluation harness (SPEC C4-7, C4-8). Scenarios as data, a runner
// through the real pipeline, versioned traces, comparison with pass^k, gates G1–G5, reports, and
// record/replay cassettes for real connectors. Named exports: what the CLI and the other packages use.
export {
  CASSETTE_MODES,
  type CassetteSetting,
  CEO_CONNECTORS,
  compareRecordings,
  evaluateCandidate,
  type Evaluation,
  recordBaseline,
  STANDIN_MODEL,
} from "./evaluate.js";
export { hashOf } from "./data/hash.js";
export { BUILTIN_SCENARIOS_DIR, TEAM_BUILDING_BASELINE_DIR } from "./data/paths.js";
export { SCENARIO_SCHEMA_VERSION } from "./scenario/types.js";
export { parseScenario } from "./scenario/parse.js";
export { checkScenario } from "./scenario/check.js";
export { loadScenarios } from "./scenario/load.js";
export { normaliseArgs } from "./trace/normalise.js";
export { BREAKS } from "./runner/breaks.js";
export { PROFILES } from "./runner/profiles.js";
export { DEFAULT_SAMPLE_CAPS, type SampleCaps } from "./runner/caps.js";
export {
  EVAL_CONNECTORS,
  type EvalConnector,
  isEvalConnector,
  labelFor,
  modelFor,
} from "./runner/live-endpoint.js";
export { TRAJECTORY_MODES, type TrajectoryMode } from "./compare/trajectory.js";
export { type CompareSettings, DEFAULT_COMPARE_SETTINGS, MIN_PASS_FLOOR } from "./compare/settings.js";
export { renderTerminal } from "./report/terminal.js";
export { summaryOf } from "./report/summary.js";
export { progressLine, usdText } from "./report/progress.js";
export type { CassetteMode } from "./cassette/cassette.js";
export { openHarnessCassette } from "./cassette/harness-cassette.js";
export { loadMutations } from "./sensitivity/mutations.js";
export {
  insensitivity,
  measureSensitivity,
  MIN_MUTANTS,
  MIN_OPERATORS,
  MIN_SCORE,
  sensitivityFile,
  writeSensitivity,
} from "./sensitivity/sensitivity.js";
export { OPERATOR_NAMES, OPERATORS } from "./sensitivity/generate.js";
export { retirementEvidence } from "./report/retirement.js";
export { BUILTIN_OPERATING_DIR, runOperatingEval } from "./operating/run.js";
export { FAULT_LABELS, type FaultLabel } from "./capture/schema.js";
export { captureRun } from "./capture/from-run.js";
export { renderCaptured } from "./capture/in-report.js";
