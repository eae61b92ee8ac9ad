// Captured scenarios in an evaluation: they run with the others, but are judged against their
// capture rather than the baseline (which may not hold them), and their verdicts join the report.
import { UserInputError } from "@cadre/core";
import type { EvalReport } from "../report/schema.js";
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { judgeCaptured } from "./judge.js";

interface RunLike {
  scenarios: LoadedScenario[];
  traces: Map<string, Trace[]>;
}

/** The run without its captured scenarios (what the baseline comparison sees), and those scenarios. */
export function splitCaptured<R extends RunLike>(run: R): { ordinary: R; captured: LoadedScenario[] } {
  const captured = run.scenarios.filter((l) => l.scenario.captured !== undefined);
  if (captured.length === 0) return { ordinary: run, captured };
  const ordinary = run.scenarios.filter((l) => l.scenario.captured === undefined);
  if (ordinary.length === 0)
    throw new UserInputError(
      `only captured scenarios ran (${captured.map((l) => l.scenario.id).join(", ")}); they are judged beside the baseline's scenarios, so run those too (drop --only, or name some of them)`,
    );
  return { ordinary: { ...run, scenarios: ordinary }, captured };
}

/** The report with each captured scenario's verdict; one that fails fails the run. */
export function withCaptured(
  report: EvalReport,
  captured: LoadedScenario[],
  traces: Map<string, Trace[]>,
): EvalReport {
  if (captured.length === 0) return report;
  const verdicts = captured.map((l) =>
    judgeCaptured(
      l.scenario.id,
      l.scenario.captured as NonNullable<typeof l.scenario.captured>,
      traces.get(l.scenario.id) ?? [],
      report.measurement.behaviourMeasured,
    ),
  );
  const failed = verdicts.some((v) => v.result === "fail");
  const unmeasured = verdicts.some((v) => v.result !== "pass");
  return {
    ...report,
    captured: verdicts,
    passed: report.passed && !failed,
    complete: report.complete && !unmeasured,
  };
}

/** The terminal lines of the captured scenarios. */
export function renderCaptured(report: EvalReport): string {
  if (!report.captured || report.captured.length === 0) return "";
  const lines = ["", "Captured scenarios (judged against the run they were captured from):"];
  for (const v of report.captured)
    lines.push(
      `  ${v.result === "pass" ? "PASS" : v.result === "fail" ? "FAIL" : "not measured"}  ${v.id} — ${v.label ? `${v.label}, to avoid` : "to hold"}: ${v.evidence}`,
    );
  return `${lines.join("\n")}\n`;
}
