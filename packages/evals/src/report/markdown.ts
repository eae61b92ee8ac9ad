// report.md: the same content as the terminal report, as markdown tables.
import { capturedMarkdown } from "../capture/in-report.js";
import type { EvalReport } from "../compare/compare.js";
import { GATE_IDS, GATE_TITLES } from "../compare/gates.js";
import { cellMark, gateMark, pct, resultLine, sourcesLine } from "./format.js";
import { SCENARIO_HEADER, scenarioRow } from "./rows.js";
import { runSectionLines } from "./run-section.js";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function mdTable(header: string[], rows: string[][]): string {
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
}

export function renderMarkdown(report: EvalReport): string {
  const b = report.baseline;
  const c = report.candidate;
  const s = report.settings;
  return [
    `# Behaviour evaluation: ${resultLine(report)}`,
    "",
    `- Baseline: \`${b.dir}\` — profile **${b.profile}** on ${b.connector}, ${b.samples} samples per scenario, seed ${b.seed}, recorded ${b.createdAt}`,
    `- Candidate: profile **${c.profile}** on ${c.connector}${c.break ? ` — deliberately broken: \`${c.break}\`` : ""}, ${c.samples} samples per scenario, seed ${c.seed}${c.seed === b.seed ? " (paired with the baseline's samples)" : " (fresh draws)"}`,
    `- Tool coverage ${pct(report.toolCoverage)} · initial cue ${report.baselineCueTokens} → ${report.cueTokens} tokens (o200k) · system prompt ${report.systemPromptTokens.baseline ?? "–"} → ${report.systemPromptTokens.candidate ?? "–"} tokens · cache hit rate ${pct(report.cacheHitRate.baseline)} → ${pct(report.cacheHitRate.candidate)}`,
    `- ${sourcesLine(report.sources).replace(/^samples/, "Samples")}`,
    ...(report.run ? runSectionLines(report.run).map((l) => `- ${l.replace(/^(\w+)\s+/, "$1: ")}`) : []),
    `- Evidence source: **${report.measurement.source}** — ${report.measurement.note}${report.measurement.sensitivity ? `; sensitivity on ${report.measurement.sensitivity.connector}: ${report.measurement.sensitivity.detected}/${report.measurement.sensitivity.total} mutations detected` : ""}`,
    `- Thresholds: pass^${s.k} ≥ ${s.minPassK}; hires within ±${s.hireTolerance} of the baseline median; roles: every function hired by the baseline, or team Jaccard ≥ ${s.functionJaccard}; tool coverage ≥ ${pct(s.minToolCoverage)} in ≥ ${s.minToolStates} states; cue ≤ ${s.maxCueTokens} tokens; cache within ${s.cacheTolerance * 100} points; tool calls matched ${s.trajectory}; model calls within ±${s.modelCallTolerance * 100}% of the median (at least ±2); G4 passes on ≥ ${s.minBehaviourScenarios} scenarios`,
    "",
    "## Gates",
    "",
    mdTable(
      ["gate", "", "result", "evidence"],
      GATE_IDS.map((g) => [g, GATE_TITLES[g], gateMark(report.gates[g]), report.gates[g].evidence]),
    ),
    "",
    "## Scenarios",
    "",
    mdTable(SCENARIO_HEADER, report.scenarios.map(scenarioRow)),
    "",
    ...capturedMarkdown(report),
    "Tool-call sequence match (share of candidate samples matching some baseline sample):",
    "",
    mdTable(
      ["scenario", "strict", "unordered", "subset", "superset"],
      report.scenarios.map((x) => [
        x.id,
        pct(x.trajectoryMatch.strict),
        pct(x.trajectoryMatch.unordered),
        pct(x.trajectoryMatch.subset),
        pct(x.trajectoryMatch.superset),
      ]),
    ),
    "",
    "## Gate matrix",
    "",
    mdTable(
      ["scenario", ...GATE_IDS],
      report.matrix.map((m) => [
        m.scenario,
        ...GATE_IDS.map((g) => `${cellMark(m.cells[g])}: ${m.cells[g].evidence}`),
      ]),
    ),
    "",
    ...report.scenarios
      .filter((x) => x.result === "fail" || !x.verdict)
      .flatMap((x) => [
        `### ${x.id} ${x.result === "fail" ? "failed" : "differs (behaviour not measured)"}`,
        "",
        ...x.reasons.map((r) => `- ${r}`),
        "",
      ]),
  ].join("\n");
}
