// G5 retirement from evidence (C4-6): a measured, passing G5 justifies retiring the legacy POST
// routes; a scripted run's "not measured" G5, a failing G5 or a non-report never does.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { retirementEvidence } from "./retirement.js";

// A real report.json written by `cadre eval run` offline (behaviour not measured: G5 has no verdict).
const offline = readFileSync(
  new URL("../../../web/src/model/__fixtures__/eval-report.json", import.meta.url),
  "utf8",
);
// The same report as a live connector with a sensitivity record would write it: measured, G5 passing.
// (No stand-in or scripted run can produce one; the rules of retirement are what is under test.)
const live = JSON.parse(offline);
const measured = JSON.stringify({
  ...live,
  measurement: { ...live.measurement, source: "live", behaviourMeasured: true, note: "behaviour measured" },
  gates: {
    ...live.gates,
    G5: { ...live.gates.G5, pass: true, measured: true, source: "live", verdict: true, undecided: null },
  },
});

describe("retiring the legacy POST routes takes G5 evidence", () => {
  it("accepts a report whose G5 is measured and passing, with its hash", () => {
    const r = retirementEvidence(measured);
    expect(r).toMatchObject({ ok: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("refuses a scripted run's G5 (not measured), a failing G5, and what is not a report", () => {
    expect(retirementEvidence(offline)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^its G5 was not measured \(behaviour not measured: the offline model is scripted\)/,
      ),
    });
    const report = JSON.parse(measured);
    const scripted = {
      ...report,
      measurement: {
        ...report.measurement,
        source: "scripted",
        behaviourMeasured: false,
        note: "behaviour not measured: the offline model is scripted",
      },
      gates: { ...report.gates, G5: { ...report.gates.G5, pass: null, measured: false, source: "scripted" } },
    };
    expect(retirementEvidence(JSON.stringify(scripted))).toEqual({
      ok: false,
      reason: "its G5 was not measured (behaviour not measured: the offline model is scripted)",
    });
    const failing = {
      ...report,
      gates: { ...report.gates, G5: { ...report.gates.G5, pass: false, evidence: "G4 must pass first" } },
    };
    expect(retirementEvidence(JSON.stringify(failing))).toEqual({
      ok: false,
      reason: "its G5 does not pass: G4 must pass first",
    });
    expect(retirementEvidence("{}")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a report/),
    });
  });
});
