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
    lines.push(`  ${resultText(v.result)}  ${v.id} — ${labelText(v.label)}: ${v.evidence}`);
  return `${lines.join("\n")}\n`;
}

const resultText = (r: "pass" | "fail" | "not measured") =>
  r === "pass" ? "PASS" : r === "fail" ? "FAIL" : "not measured";
const labelText = (label: string | null) => (label ? `${label}, to avoid` : "to hold");

/** report.md's section on the captured scenarios (none: no lines). */
export function capturedMarkdown(report: EvalReport): string[] {
  if (!report.captured || report.captured.length === 0) return [];
  return [
    "## Captured scenarios",
    "",
    "Judged against the run each was captured from, not the baseline.",
    "",
    "| scenario | captured behaviour | result | evidence |",
    "|---|---|---|---|",
    ...report.captured.map(
      (v) =>
        `| ${v.id} | ${labelText(v.label)} | ${resultText(v.result)} | ${v.evidence.replace(/\|/g, "\\|")} |`,
    ),
    "",
  ];
}

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** report.html's section on the captured scenarios (none: empty). */
export function capturedHtml(report: EvalReport): string {
  if (!report.captured || report.captured.length === 0) return "";
  const rows = report.captured
    .map(
      (v) =>
        `<tr class="${v.result === "pass" ? "pass" : v.result === "fail" ? "fail" : "na"}"><td>${escape(v.id)}</td><td>${escape(labelText(v.label))}</td><td>${resultText(v.result)}</td><td class="ev">${escape(v.evidence)}</td></tr>`,
    )
    .join("");
  return `<h2>Captured scenarios</h2><p>Judged against the run each was captured from, not the baseline.</p><table><tr><th>scenario</th><th>captured behaviour</th><th>result</th><th>evidence</th></tr>${rows}</table>`;
}
