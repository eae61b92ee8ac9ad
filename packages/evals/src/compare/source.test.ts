// A live candidate is compared only with a baseline of its own connector and model,
// unless --cross-source says otherwise, and the report then says so; and the CEO's own seeded
// connector counts as declared, so valid hires on a live connector pass parameter validity (G4).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCandidate, recordBaseline } from "../evaluate.js";
import { readRecording } from "../recording/read.js";
import { renderTerminal } from "../report/terminal.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-source-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const only = ["empty-single-connector", "no-ready-connector"];
const base = { profile: "semantic", samples: 1, seed: 4, only, concurrency: 2 };

describe("sources of a comparison", () => {
  it("refuses a live candidate against an offline baseline, naming both and --cross-source; with it, compares and says so", async () => {
    const offline = join(dir, "offline");
    await recordBaseline({ ...base, out: offline });
    const run = (crossSource: boolean) =>
      evaluateCandidate({
        ...base,
        connector: "standin",
        baseline: offline,
        out: join(dir, `cross-${crossSource}`),
        crossSource,
      });
    await expect(run(false)).rejects.toThrow(
      /the baseline was recorded on offline \(model offline-scripted-1\) but the candidate runs on standin \(model cadre-standin-plumbing-1b\): .*--cross-source/,
    );
    const { report } = await run(true);
    expect(report.run).toMatchObject({
      baselineSource: "offline (model offline-scripted-1)",
      candidateSource: "standin (model cadre-standin-plumbing-1b)",
      crossSource: true,
      warnings: expect.arrayContaining([
        expect.stringMatching(/^cross-source: the baseline was recorded on offline/),
      ]),
    });
    expect(renderTerminal(report)).toMatch(
      /sources +baseline offline \(model offline-scripted-1\) · candidate standin \(model cadre-standin-plumbing-1b\) \(CROSS-SOURCE: --cross-source\)/,
    );
  });

  it("same source: compared without a flag; hires on the CEO's seeded connector count as declared (G4 parameters valid)", async () => {
    const standin = join(dir, "standin");
    await recordBaseline({ ...base, connector: "standin", out: standin });
    const { report } = await evaluateCandidate({
      ...base,
      connector: "standin",
      baseline: standin,
      out: join(dir, "same"),
    });
    expect(report.run).toMatchObject({ crossSource: false, cost: { usd: null, trusted: true } });
    expect(renderTerminal(report)).toMatch(/\(same source\)/);
    expect(renderTerminal(report)).toMatch(/cost +unknown/);
    // No connector of its own is ready in this scenario: the CEO hires on its own (ceo-openai-compatible).
    const noReady = report.scenarios.find((s) => s.id === "no-ready-connector")!;
    expect(noReady.params.total).toBeGreaterThan(0);
    expect(noReady.params).toMatchObject({ valid: noReady.params.total, problems: [] });
    expect(report.gates.G4.pass).not.toBe(false);
    const candidate = await readRecording(join(dir, "same", "candidate"));
    const hires = candidate.traces.get("no-ready-connector")!.flatMap((t) => t.hires);
    expect(hires.length).toBe(noReady.params.total);
    expect(new Set(hires.map((h) => h.connectorId))).toEqual(new Set(["ceo-openai-compatible"]));
  });
});
