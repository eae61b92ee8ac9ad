// Small formatting helpers shared by the terminal, markdown and HTML reports.
export const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(0)}%`);
export const fixed = (x: number, digits = 2) => x.toFixed(digits);
export const signedPoints = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}pt`;
export const mark = (pass: boolean | null) => (pass === null ? "–" : pass ? "PASS" : "FAIL");

const UNDECIDED: Readonly<Record<string, string>> = {
  states: "NOT ENOUGH STATES",
  scenarios: "NOT ENOUGH SCENARIOS",
  samples: "INCOMPLETE",
};

/** A gate's headline: PASS / FAIL, or why it has no verdict (never PASS when not measured). */
export function gateMark(g: {
  pass: boolean | null;
  measured: boolean;
  verdict: boolean | null;
  undecided?: string | null;
}): string {
  if (g.pass !== null) return g.pass ? "PASS" : "FAIL";
  if (!g.measured) return "NOT MEASURED";
  return (g.undecided ? UNDECIDED[g.undecided] : undefined) ?? "–";
}

/** A matrix cell: PASS / FAIL, n/m where behaviour was not measured, – where the gate does not apply. */
export function cellMark(cell: { pass: boolean | null; evidence: string }): string {
  if (cell.pass === null && cell.evidence.startsWith("not measured")) return "n/m";
  return mark(cell.pass);
}

/** A scenario row's result: PASS / FAIL only when behaviour was measured. */
export function scenarioMark(result: string): string {
  return result === "pass" ? "PASS" : result === "fail" ? "FAIL" : result;
}

/** The report's one-line result. */
export function resultLine(report: {
  passed: boolean;
  complete: boolean;
  gates: Record<string, { pass: boolean | null; measured: boolean; undecided?: string | null }>;
  measurement: { note: string };
}): string {
  const ids = Object.keys(report.gates);
  if (!report.passed) return `${ids.filter((g) => report.gates[g]?.pass === false).join(", ")} failed`;
  if (report.complete) return "all gates pass";
  const unmeasured = ids.filter((g) => report.gates[g]?.pass === null);
  // Measured but undecided: say why (too few scenarios, states or samples), not only the note.
  const why = [
    ...new Set(
      unmeasured.flatMap((g) => {
        const u = report.gates[g]?.undecided;
        return report.gates[g]?.measured && u ? [UNDECIDED[u]?.toLowerCase() ?? u] : [];
      }),
    ),
  ];
  return `no gate failed; ${unmeasured.join(", ")} without a verdict (${[...why, report.measurement.note].join("; ")})`;
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** A plain-text table: header, a rule, rows; columns as wide as their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i] as number))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const counts = (sources: Record<string, number>) =>
  Object.entries(sources)
    .map(([source, n]) => `${n} ${source}`)
    .join(", ") || "none";

/** Where the samples' answers came from; replayed usage and latency are the recording's, not live. */
export function sourcesLine(sources: {
  baseline: Record<string, number>;
  candidate: Record<string, number>;
}): string {
  const replayed = (sources.baseline["replayed"] ?? 0) + (sources.candidate["replayed"] ?? 0);
  return `samples: baseline ${counts(sources.baseline)}; candidate ${counts(sources.candidate)}${replayed > 0 ? " — replayed samples answer from cassettes: their usage, cache and latency are the recording's, not live evidence" : ""}`;
}
