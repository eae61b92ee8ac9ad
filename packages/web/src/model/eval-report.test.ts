// Reading a report.json in the browser: a real one (written by `cadre eval run`) parses into the
// tables and chart series; anything else is refused with the reason.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cacheRateSeries, hireSeries, SCENARIO_COLUMNS, scenarioRow, summaryLines } from "./eval-report.js";
import { parseEvalReport } from "./eval-report-read.js";

const text = readFileSync(new URL("./__fixtures__/eval-report.json", import.meta.url), "utf8");

describe("evaluation report", () => {
  it("reads a real report: one table row per scenario and chart series aligned with them", () => {
    const parsed = parseEvalReport(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const r = parsed.report;
    expect(r.scenarios).toHaveLength(16);
    const row = scenarioRow(r.scenarios[0]!);
    expect(row).toHaveLength(SCENARIO_COLUMNS.length);
    expect(row[0]).toBe("empty-no-goal");
    // A scripted run: the row says what was checked, never "pass".
    expect(row.at(-1)).toBe("plumbing ok");
    const hires = hireSeries(r);
    expect(hires.labels).toEqual(r.scenarios.map((s) => s.id));
    expect(hires.x).toEqual(r.scenarios.map((_, i) => i));
    expect(hires.candidate[0]).toBe(r.scenarios[0]!.candidate.medianHires);
    const cache = cacheRateSeries(r);
    expect(cache.baseline[0]).toBeCloseTo(r.scenarios[0]!.baseline.cacheHitRate * 100, 1);
    expect(summaryLines(r)[0]).toEqual(["result", "no gate failed; some gates have no verdict"]);
  });

  it("refuses what is not a report it can read, saying why", () => {
    const report = JSON.parse(text) as Record<string, unknown>;
    const cases: Array<[string, RegExp]> = [
      ["{not json", /not JSON/],
      [JSON.stringify({ kind: "something-else" }), /not an evaluation report/],
      [JSON.stringify({ ...report, schemaVersion: 2 }), /schema version 2 is not supported/],
      [
        JSON.stringify({ ...report, gates: { G1: {} } }),
        /`gates\.G1\.pass` is required.*`gates\.G2` is required/,
      ],
      [JSON.stringify({ ...report, scenarios: [{ id: "x" }] }), /`scenarios\[0\]\.title` is required/],
      [JSON.stringify({ ...report, toolCoverage: "95%" }), /`toolCoverage` must be a number, got a string/],
    ];
    for (const [input, error] of cases) {
      const parsed = parseEvalReport(input);
      expect(parsed.ok, input.slice(0, 40)).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(error);
    }
  });
});
