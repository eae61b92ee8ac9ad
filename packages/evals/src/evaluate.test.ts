// End to end, offline: baselines recorded through the real pipeline (store, tools, Pi loop, and
// for the legacy profile the real HTTP server and bash tool), candidates compared, gates decided.
import { readEvalReport } from "./report/schema.js";
import { renderTerminal } from "./report/terminal.js";
import { compareRuns } from "./compare/compare.js";
import { DEFAULT_COMPARE_SETTINGS } from "./compare/settings.js";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCandidate, recordBaseline } from "./evaluate.js";
import { readRecording } from "./recording/read.js";
import { modeDrift } from "./compare/gates.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cadre-evaluate-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("legacy → semantic migration (all built-in scenarios, offline)", () => {
  let baseline: string;
  beforeAll(async () => {
    baseline = join(root, "legacy");
    await recordBaseline({ profile: "legacy", samples: 1, seed: 5, concurrency: 2, out: baseline });
  }, 240_000);

  it("the legacy baseline hires over HTTP with a ≈400-token initial turn", async () => {
    const rec = await readRecording(baseline);
    const traces = [...rec.traces.values()].flat();
    const hires = traces.flatMap((t) => t.hires);
    expect(rec.manifest.scenarios.length).toBeGreaterThanOrEqual(12);
    expect(hires.length).toBeGreaterThan(20);
    expect(hires.every((h) => h.via === "http")).toBe(true);
    expect(
      traces.filter((t) => t.hires.length > 0).every((t) => t.tools.map((x) => x.name).join() === "bash"),
    ).toBe(true);
    const cue = Math.max(...traces.map((t) => t.cue.tokens));
    expect(cue).toBeGreaterThan(350);
    expect(cue).toBeLessThan(500);
  });

  it("offline, the semantic candidate passes the plumbing (G1, G2) and G3–G5 say behaviour was NOT measured", async () => {
    const out = join(root, "semantic-report");
    const { report, files } = await evaluateCandidate({
      profile: "semantic",
      samples: 1,
      concurrency: 2,
      baseline,
      out,
      sensitivityFile: join(root, "none.json"),
    });
    for (const g of ["G1", "G2"] as const)
      expect({ gate: g, ...report.gates[g] }).toMatchObject({
        gate: g,
        pass: true,
        measured: true,
        source: "scripted",
      });
    // Behaviour from a scripted model is never PASS: not measured, with what the rules computed.
    for (const g of ["G3", "G4", "G5"] as const) {
      expect({ gate: g, ...report.gates[g] }).toMatchObject({
        gate: g,
        pass: null,
        measured: false,
        source: "scripted",
        verdict: true,
      });
      expect(report.gates[g].evidence).toMatch(/^behaviour not measured: the offline model is scripted; /);
    }
    // The matrix agrees with the headline: no behaviour cell reads PASS.
    for (const row of report.matrix)
      for (const g of ["G3", "G4", "G5"] as const) expect(row.cells[g].pass).toBeNull();
    expect(report.measurement).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
      sensitivity: null,
    });
    // One mode decision (C4-4), checked on what the model was sent: in every state of every mode,
    // the cue, the prompt's phase line and its mode document name the same phase.
    const sent = [...(await readRecording(join(out, "candidate"))).traces.values()].flat();
    expect(new Set(sent.map((t) => t.modeBefore)).size).toBe(5);
    for (const t of sent.filter((x) => x.systemPrompt.observed)) {
      expect({ scenario: t.scenarioId, drift: modeDrift(t) }).toEqual({
        scenario: t.scenarioId,
        drift: null,
      });
      expect(t.systemPrompt.phases?.document).toBe(t.systemPrompt.phases?.runtime);
      expect(t.cue.text).toContain(`Review your ${t.systemPrompt.phases?.document} operating instructions`);
    }
    expect(report.passed).toBe(true);
    expect(report.complete).toBe(false);
    expect(report.toolCoverage).toBe(1);
    expect(report.baselineCueTokens).toBeGreaterThan(350);
    expect(report.cueTokens).toBeLessThanOrEqual(80);
    expect(report.gates.G3.evidence).toMatch(/via hire_agent \(100\.0%\); (\d+) of \1 hiring states/);
    // The reports: JSON as computed, markdown with the gates, HTML self-contained.
    expect(JSON.parse(await readFile(files.json, "utf8"))).toEqual(JSON.parse(JSON.stringify(report)));
    // The file reads back through the report schema the dashboard reads it with, unchanged.
    const read = readEvalReport(await readFile(files.json, "utf8"));
    if (!read.ok) throw new Error(read.error);
    expect(read.report).toEqual(JSON.parse(JSON.stringify(report)));
    const md = await readFile(files.md, "utf8");
    expect(md).toMatch(/\| G5 \| the legacy path can be retired with no regression \| NOT MEASURED \|/);
    expect(md).toMatch(/^# Behaviour evaluation: no gate failed; G3, G4, G5 without a verdict/);
    const html = await readFile(files.html, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<(link|script|img)\b|url\(|src=/i);
  });

  it("a candidate that hides hire_agent fails the plumbing even offline: G2 (offered 0 times) and G3 (tool not offered)", async () => {
    const { report } = await evaluateCandidate({
      profile: "semantic",
      samples: 1,
      concurrency: 2,
      break: "hide-tool",
      baseline,
      out: join(root, "hide-tool"),
    });
    expect(report.gates.G1.pass).toBe(true);
    // Zero observations cannot pass.
    expect(report.gates.G2).toMatchObject({ pass: false, measured: true });
    expect(report.gates.G2.evidence).toMatch(/hire_agent was offered in 0\/\d+ observed samples/);
    expect(report.gates.G3.pass).toBe(false);
    expect(report.gates.G3.evidence).toMatch(
      /hire_agent not offered in \d+ hiring state\(s\): empty-no-goal/,
    );
    expect(report.gates.G5.pass).toBe(false);
    expect(report.passed).toBe(false);
  });

  it("a candidate that stops after one hire: offline, G4's verdict fails but is reported not measured, never PASS", async () => {
    const { report } = await evaluateCandidate({
      profile: "semantic",
      samples: 1,
      concurrency: 2,
      break: "single-hire",
      baseline,
      out: join(root, "single-hire"),
    });
    expect(report.gates.G4).toMatchObject({ pass: null, measured: false, verdict: false });
    expect(report.gates.G4.evidence).toMatch(
      /behaviour differs in \d+ scenario\(s\): .*hire count: 1 hire\(s\) \(baseline band/,
    );
    const cell = report.matrix.find((m) => m.scenario === "empty-single-connector")!.cells;
    expect(cell.G4.pass).toBeNull();
    expect(cell.G4.evidence).toMatch(/^not measured \(scripted\): /);
  });

  it("--only two scenarios: G3 says not enough states instead of failing, and nothing contradicts the matrix", async () => {
    const { report, files } = await evaluateCandidate({
      profile: "semantic",
      samples: 1,
      concurrency: 2,
      only: ["empty-single-connector", "partial-team"],
      baseline,
      out: join(root, "only-two"),
    });
    expect(report.gates.G3.verdict).toBeNull();
    expect(report.gates.G3.evidence).toMatch(
      /not enough states: the run holds 2 hiring state\(s\); G3 needs 10/,
    );
    expect(report.gates.G1.pass).toBe(true);
    expect(Object.values(report.gates).some((g) => g.pass === false)).toBe(false);
    expect(report.passed).toBe(true);
    // The headline a person reads says the same as the matrix: no FAIL in either, and G3 says why
    // it has no verdict — in the terminal summary and in report.md.
    expect(report.matrix.flatMap((row) => Object.values(row.cells)).some((c) => c.pass === false)).toBe(
      false,
    );
    const terminal = renderTerminal(report);
    expect(terminal).toMatch(/^RESULT: no gate failed; G3, G4, G5 without a verdict/m);
    expect(terminal).toMatch(/^G3 +NOT MEASURED|^G3 +NOT ENOUGH STATES/m);
    expect(terminal).not.toMatch(/\bFAIL\b/);
    const md = await readFile(files.md, "utf8");
    expect(md).toMatch(/^# Behaviour evaluation: no gate failed; G3, G4, G5 without a verdict/);
    expect(md).not.toMatch(/\bFAIL\b/);
    expect(md).toContain("not enough states: the run holds 2 hiring state(s); G3 needs 10");
  });

  it("a gate whose evidence is 0 observations cannot pass: no model call observed, G2 has no verdict", async () => {
    const recorded = await readRecording(baseline);
    // The same samples, as if no model call had been seen (nothing observed of what was offered).
    const unseen = new Map(
      [...recorded.traces].map(([id, traces]) => [
        id,
        traces.map((t) => ({ ...t, systemPrompt: { ...t.systemPrompt, observed: false } })),
      ]),
    );
    const m = recorded.manifest;
    const report = compareRuns(
      recorded,
      {
        profile: m.profile,
        connector: m.connector,
        samples: m.samples,
        seed: m.seed,
        break: m.break,
        scenarios: recorded.scenarios,
        traces: unseen,
      },
      DEFAULT_COMPARE_SETTINGS,
    );
    expect(report.gates.G2.pass).not.toBe(true);
    expect(report.gates.G2).toMatchObject({ pass: null, verdict: null });
    expect(report.gates.G2.evidence).toMatch(
      /offered to the model in 0\/0 observed sample\(s\); not enough states: no model call was observed/,
    );
    expect(report.complete).toBe(false);
  });
});

describe("semantic baseline, semantic candidate", () => {
  let baseline: string;
  beforeAll(async () => {
    baseline = join(root, "semantic");
    await recordBaseline({ profile: "semantic", samples: 2, seed: 9, concurrency: 2, out: baseline });
  }, 120_000);

  it("passes G3 and G4 (and every gate); the same seed reproduces the same behaviour", async () => {
    const out = join(root, "semantic-vs-semantic");
    const { report } = await evaluateCandidate({
      profile: "semantic",
      samples: 2,
      concurrency: 2,
      baseline,
      out,
    });
    expect(report.candidate.seed).toBe(9);
    expect(report.gates.G3.verdict).toBe(true);
    expect(report.gates.G4.verdict).toBe(true);
    expect(report.passed).toBe(true);
    const [base, cand] = await Promise.all([readRecording(baseline), readRecording(join(out, "candidate"))]);
    // Usage is left out: generated ids (random UUIDs) in tool results shift token counts slightly.
    const behaviour = (r: typeof base) =>
      [...r.traces.values()].flat().map((t) => ({
        seed: t.seed,
        calls: t.toolCalls,
        trajectory: t.trajectory,
        hires: t.hires,
        final: t.finalState,
        modelCalls: t.usage.modelCalls,
      }));
    expect(behaviour(cand)).toEqual(behaviour(base));
    expect(Math.abs(report.cacheHitRate.candidate - report.cacheHitRate.baseline)).toBeLessThan(0.01);
  });

  it("with fresh seeds the candidate still uses the tool everywhere (G3), and flakiness is reported per scenario", async () => {
    const { report } = await evaluateCandidate({
      profile: "semantic",
      samples: 2,
      seed: 77,
      concurrency: 2,
      baseline,
      out: join(root, "fresh"),
    });
    expect(report.candidate.seed).toBe(77);
    expect(report.gates.G3.verdict).toBe(true);
    expect(report.gates.G3.pass).toBeNull();
    for (const s of report.scenarios) {
      expect(s.flakiness).toBeGreaterThanOrEqual(0);
      expect(s.passK).toBeLessThanOrEqual(s.passAt1);
    }
  });
});
