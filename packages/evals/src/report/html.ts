// report.html: one self-contained page (inline CSS and SVG, no external asset), readable offline
// and attachable to a CI run. Every gate cell carries its evidence.
import { capturedHtml } from "../capture/in-report.js";
import type { EvalReport } from "../compare/compare.js";
import { GATE_IDS, GATE_TITLES } from "../compare/gates.js";
import { cellMark, fixed, gateMark, pct, resultLine, sourcesLine } from "./format.js";
import { runSectionLines } from "./run-section.js";
import { SCENARIO_HEADER, scenarioRow } from "./rows.js";

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2329;max-width:1400px}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}.scroll{overflow-x:auto}td{white-space:nowrap}td.ev,.ev{white-space:normal}th,td{border:1px solid #d4d9de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f5f7}.pass{background:#e3f6e8}.fail{background:#fde4e1}.na{color:#8a949e}
.ev{font-size:12px;color:#4a545e;max-width:28rem}.badge{font-weight:600;padding:2px 8px;border-radius:4px}
ul{padding-left:1.2rem}code{background:#f3f5f7;padding:0 3px}`;

function cls(pass: boolean | null): string {
  return pass === null ? "na" : pass ? "pass" : "fail";
}

/** A horizontal bar per scenario: pass^k, with the threshold drawn as a line. */
function passKChart(report: EvalReport): string {
  const rowH = 18;
  // Wide enough for the longest scenario id at 11px (about 6.5px a character), so labels never clip.
  const labelW = Math.max(
    160,
    12 + Math.ceil(6.5 * Math.max(0, ...report.scenarios.map((s) => s.id.length))),
  );
  const barW = 300;
  const h = report.scenarios.length * rowH + 24;
  const x0 = labelW + report.settings.minPassK * barW;
  const bars = report.scenarios
    .map((s, i) => {
      const y = i * rowH + 4;
      const color = s.passed === true ? "#3a9d5d" : s.passed === false ? "#d9534f" : "#8a949e";
      return `<text x="${labelW - 6}" y="${y + 12}" text-anchor="end" font-size="11">${escapeHtml(s.id)}</text><rect x="${labelW}" y="${y}" width="${Math.max(1, s.passK * barW)}" height="${rowH - 5}" fill="${color}"><title>pass^${s.k} ${fixed(s.passK)}, flakiness ${fixed(s.flakiness)}</title></rect><text x="${labelW + barW + 6}" y="${y + 12}" font-size="11">${fixed(s.passK)}</text>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + barW + 50}" height="${h}" role="img" aria-label="pass^k per scenario">${bars}<line x1="${x0}" x2="${x0}" y1="0" y2="${h - 18}" stroke="#1d2329" stroke-dasharray="3 3"/><text x="${x0}" y="${h - 4}" font-size="11" text-anchor="middle">threshold ${report.settings.minPassK}</text></svg>`;
}

function htmlTable(header: string[], rows: string[][], rowClass?: (i: number) => string): string {
  return `<table><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>${rows.map((r, i) => `<tr class="${rowClass?.(i) ?? ""}">${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("")}</table>`;
}

export function renderHtml(report: EvalReport): string {
  const b = report.baseline;
  const c = report.candidate;
  const gates = `<table><tr><th>gate</th><th></th><th>result</th><th>evidence</th></tr>${GATE_IDS.map((g) => `<tr class="${cls(report.gates[g].pass)}"><td>${g}</td><td>${escapeHtml(GATE_TITLES[g])}</td><td>${gateMark(report.gates[g])}</td><td class="ev">${escapeHtml(report.gates[g].evidence)}</td></tr>`).join("")}</table>`;
  const matrix = `<table><tr><th>scenario</th>${GATE_IDS.map((g) => `<th>${g}</th>`).join("")}</tr>${report.matrix
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.scenario)}</td>${GATE_IDS.map((g) => `<td class="${cls(m.cells[g].pass)}" title="${escapeHtml(m.cells[g].evidence)}"><b>${cellMark(m.cells[g])}</b><div class="ev">${escapeHtml(m.cells[g].evidence)}</div></td>`).join("")}</tr>`,
    )
    .join("")}</table>`;
  const failures = report.scenarios
    .filter((s) => s.result === "fail" || !s.verdict)
    .map(
      (s) =>
        `<li><b>${escapeHtml(s.id)}</b>${s.measured ? "" : " (behaviour not measured)"}: ${escapeHtml(s.reasons.join("; ") || "plumbing (see the gate matrix)")}</li>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cadre behaviour evaluation</title><style>${CSS}</style></head><body>
<h1>Behaviour evaluation <span class="badge ${report.complete ? "pass" : report.passed ? "na" : "fail"}">${escapeHtml(resultLine(report))}</span></h1>
<p>Baseline <code>${escapeHtml(b.dir)}</code>: profile <b>${escapeHtml(b.profile)}</b> on ${escapeHtml(b.connector)}, ${b.samples} samples per scenario, seed ${b.seed}, recorded ${escapeHtml(b.createdAt)}.<br>
Candidate: profile <b>${escapeHtml(c.profile)}</b> on ${escapeHtml(c.connector)}${c.break ? `, deliberately broken (<code>${escapeHtml(c.break)}</code>)` : ""}, ${c.samples} samples per scenario, seed ${c.seed}${c.seed === b.seed ? " (paired with the baseline's samples)" : " (fresh draws)"}.<br>
Tool coverage <b>${pct(report.toolCoverage)}</b> · initial cue ${report.baselineCueTokens} → <b>${report.cueTokens}</b> tokens · system prompt ${report.systemPromptTokens.baseline ?? "–"} → ${report.systemPromptTokens.candidate ?? "–"} tokens · cache hit rate ${pct(report.cacheHitRate.baseline)} → ${pct(report.cacheHitRate.candidate)}.<br>
${escapeHtml(sourcesLine(report.sources))}.<br>
${
  report.run
    ? runSectionLines(report.run)
        .map((l) => `${escapeHtml(l)}<br>`)
        .join("\n")
    : ""
}
Evidence source: <b>${escapeHtml(report.measurement.source)}</b> — ${escapeHtml(report.measurement.note)}${report.measurement.sensitivity ? `; sensitivity on ${escapeHtml(report.measurement.sensitivity.connector)}: ${report.measurement.sensitivity.detected}/${report.measurement.sensitivity.total} mutations detected` : ""}.</p>
<h2>Gates</h2>${gates}
<h2>Gate matrix</h2><div class="scroll">${matrix}</div>
<h2>Scenarios</h2><div class="scroll">${htmlTable(SCENARIO_HEADER, report.scenarios.map(scenarioRow), (i) => cls(report.scenarios[i]?.passed ?? null))}</div>
${failures ? `<ul>${failures}</ul>` : ""}
${capturedHtml(report)}
<h2>pass^k per scenario</h2>${passKChart(report)}
<h2>Tool-call sequence match</h2>${htmlTable(
    ["scenario", "strict", "unordered", "subset", "superset"],
    report.scenarios.map((s) => [
      s.id,
      pct(s.trajectoryMatch.strict),
      pct(s.trajectoryMatch.unordered),
      pct(s.trajectoryMatch.subset),
      pct(s.trajectoryMatch.superset),
    ]),
  )}
</body></html>
`;
}
