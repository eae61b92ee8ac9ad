// The report as printed on the terminal: the scenario table, then the gate matrix.
import type { EvalReport } from "../compare/compare.js";
import { GATE_IDS, GATE_TITLES } from "../compare/gates.js";
import { mark, pct, sourcesLine, table } from "./format.js";
import { SCENARIO_HEADER, scenarioRow } from "./rows.js";

export function renderTerminal(report: EvalReport): string {
  const b = report.baseline;
  const c = report.candidate;
  const lines = [
    `baseline   ${b.dir} — profile ${b.profile} on ${b.connector}, ${b.samples} samples/scenario, seed ${b.seed}`,
    `candidate  profile ${c.profile} on ${c.connector}${c.break ? `, BROKEN: ${c.break}` : ""}, ${c.samples} samples/scenario, seed ${c.seed}${c.seed === b.seed ? " (paired with the baseline's samples)" : " (fresh draws)"}`,
    "",
    table(SCENARIO_HEADER, report.scenarios.map(scenarioRow)),
  ];
  const failing = report.scenarios.filter((s) => !s.passed);
  if (failing.length > 0)
    lines.push("", "Why scenarios failed:", ...failing.map((s) => `  ${s.id}: ${s.reasons.join("; ")}`));
  lines.push(
    "",
    `tool coverage ${pct(report.toolCoverage)} · cue ${report.baselineCueTokens} → ${report.cueTokens} tokens · system prompt ${report.systemPromptTokens.baseline ?? "–"} → ${report.systemPromptTokens.candidate ?? "–"} tokens · cache hit rate ${pct(report.cacheHitRate.baseline)} → ${pct(report.cacheHitRate.candidate)}`,
    sourcesLine(report.sources),
    "",
    "Gates",
    table(
      ["gate", "result", "evidence"],
      GATE_IDS.map((g) => [g, mark(report.gates[g].pass), `${GATE_TITLES[g]}: ${report.gates[g].evidence}`]),
    ),
    "",
    "Gate matrix (per scenario; – = does not apply)",
    table(
      ["scenario", ...GATE_IDS],
      report.matrix.map((m) => [m.scenario, ...GATE_IDS.map((g) => mark(m.cells[g].pass))]),
    ),
    "",
    report.passed
      ? "RESULT: all gates pass"
      : `RESULT: ${GATE_IDS.filter((g) => !report.gates[g].pass).join(", ")} failed`,
  );
  return `${lines.join("\n")}\n`;
}
