// The report as printed on the terminal: the scenario table, then the gate matrix.
import type { EvalReport } from "../compare/compare.js";
import { GATE_IDS, GATE_TITLES } from "../compare/gates.js";
import { cellMark, gateMark, pct, resultLine, sourcesLine, table } from "./format.js";
import { SCENARIO_HEADER, scenarioRow } from "./rows.js";
import { runSectionLines } from "./run-section.js";

function sensitivityNote(report: EvalReport): string {
  const s = report.measurement.sensitivity;
  return s
    ? `; last sensitivity on ${s.connector}: ${s.detected}/${s.total} mutations detected (${s.createdAt})`
    : "; no sensitivity measured for this connector (cadre eval sensitivity)";
}

export function renderTerminal(report: EvalReport): string {
  const b = report.baseline;
  const c = report.candidate;
  const lines = [
    `baseline   ${b.dir} — profile ${b.profile} on ${b.connector}, ${b.samples} samples/scenario, seed ${b.seed}`,
    `candidate  profile ${c.profile} on ${c.connector}${c.break ? `, BROKEN: ${c.break}` : ""}, ${c.samples} samples/scenario, seed ${c.seed}${c.seed === b.seed ? " (paired with the baseline's samples)" : " (fresh draws)"}`,
    "",
    table(SCENARIO_HEADER, report.scenarios.map(scenarioRow)),
  ];
  const failing = report.scenarios.filter((s) => s.result === "fail" || !s.verdict);
  if (failing.length > 0)
    lines.push(
      "",
      report.measurement.behaviourMeasured
        ? "Why scenarios failed:"
        : "Where the rules see a difference (behaviour not measured, so no verdict):",
      ...failing.map((s) => `  ${s.id}: ${s.reasons.join("; ") || "plumbing (see the gate matrix)"}`),
    );
  lines.push(
    "",
    `tool coverage ${pct(report.toolCoverage)} · cue ${report.baselineCueTokens} → ${report.cueTokens} tokens · system prompt ${report.systemPromptTokens.baseline ?? "–"} → ${report.systemPromptTokens.candidate ?? "–"} tokens · cache hit rate ${pct(report.cacheHitRate.baseline)} → ${pct(report.cacheHitRate.candidate)}`,
    sourcesLine(report.sources),
    ...(report.run ? runSectionLines(report.run) : []),
    "",
    `Gates (source: ${report.measurement.source}; ${report.measurement.note}${sensitivityNote(report)})`,
    table(
      ["gate", "result", "evidence"],
      GATE_IDS.map((g) => [g, gateMark(report.gates[g]), `${GATE_TITLES[g]}: ${report.gates[g].evidence}`]),
    ),
    "",
    "Gate matrix (per scenario; – = does not apply, n/m = not measured)",
    table(
      ["scenario", ...GATE_IDS],
      report.matrix.map((m) => [m.scenario, ...GATE_IDS.map((g) => cellMark(m.cells[g]))]),
    ),
    "",
    `RESULT: ${resultLine(report)}`,
  );
  return `${lines.join("\n")}\n`;
}
