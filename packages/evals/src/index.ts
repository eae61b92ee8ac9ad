// @cadre/evals: the behaviour-evaluation harness (SPEC C4-7, C4-8). Scenarios as data, a runner
// through the real pipeline, versioned traces, comparison with pass^k, gates G1–G5, reports, and
// record/replay cassettes for real connectors.
export * from "./evaluate.js";
export * from "./data/fields.js";
export * from "./data/hash.js";
export * from "./data/paths.js";
export * from "./scenario/types.js";
export * from "./scenario/parse.js";
export * from "./scenario/document.js";
export * from "./scenario/seed.js";
export * from "./scenario/check.js";
export * from "./scenario/load.js";
export * from "./trace/types.js";
export * from "./trace/parse.js";
export * from "./trace/collect.js";
export * from "./trace/normalise.js";
export * from "./runner/breaks.js";
export * from "./runner/capture.js";
export * from "./runner/pool.js";
export * from "./runner/profiles.js";
export * from "./runner/run-sample.js";
export * from "./runner/run-suite.js";
export * from "./runner/seeds.js";
export * from "./runner/caps.js";
export * from "./runner/run-cost.js";
export * from "./runner/rate-gateway.js";
export {
  EVAL_CONNECTORS,
  type EvalConnector,
  isEvalConnector,
  labelFor,
  modelFor,
} from "./runner/live-endpoint.js";
export * from "./recording/types.js";
export * from "./recording/read.js";
export * from "./recording/write.js";
export * from "./recording/tool-schemas.js";
export * from "./compare/passk.js";
export * from "./compare/trajectory.js";
export * from "./compare/measures.js";
export * from "./compare/params.js";
export * from "./compare/settings.js";
export * from "./compare/scenario.js";
export * from "./compare/gates.js";
export * from "./compare/compare.js";
export * from "./report/terminal.js";
export * from "./report/markdown.js";
export * from "./report/html.js";
export * from "./report/write.js";
export * from "./report/summary.js";
export * from "./report/schema.js";
export * from "./report/progress.js";
export * from "./report/run-section.js";
export * from "./compare/source.js";
export * from "./cassette/key.js";
export * from "./cassette/cassette.js";
export * from "./cassette/entry.js";
export * from "./cassette/parts.js";
export * from "./cassette/harness-cassette.js";
export * from "./cassette/replay-stream.js";
export * from "./sensitivity/mutations.js";
export * from "./sensitivity/sensitivity.js";
export * from "./sensitivity/certificate.js";
export * from "./sensitivity/measurement.js";
export * from "./sensitivity/generate.js";
export * from "./sensitivity/mutant.js";
export * from "./report/retirement.js";
export * from "./operating/schema.js";
export * from "./operating/checks.js";
export * from "./operating/run.js";
export * from "./capture/schema.js";
export * from "./capture/from-run.js";
export * from "./capture/judge.js";
export * from "./capture/in-report.js";
