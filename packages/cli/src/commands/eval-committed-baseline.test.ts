// The committed baseline in CI: `npm test` runs the semantic candidate against
// evals/baselines/team-building with a small sample count through the real command, and fails
// on any plumbing regression — mode drift, a tool missing, a schema change, the cue over budget.
// Behaviour is not measured here (the offline model is scripted) and the run says so.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEAM_BUILDING_BASELINE_DIR } from "@cadre/evals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-ci-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the committed baseline runs in CI", () => {
  it("cadre eval run --profile semantic --baseline evals/baselines/team-building --samples 1: no plumbing gate fails", async () => {
    const started = performance.now();
    const run = await runCli(
      [
        "eval",
        "run",
        "--profile",
        "semantic",
        "--baseline",
        TEAM_BUILDING_BASELINE_DIR,
        "--samples",
        "1",
        "--out",
        join(dir, "report"),
        "--sensitivity",
        join(dir, "none.json"),
        "--json",
      ],
      { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
    );
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`committed-baseline eval: ${seconds.toFixed(1)} s (16 scenarios × 1 sample)\n`);
    const { gates } = run.json();
    const failed = Object.entries(gates as Record<string, { pass: boolean | null; evidence: string }>)
      .filter(([, g]) => g.pass === false)
      .map(([id, g]) => `${id}: ${g.evidence}`);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    expect(gates.G1).toMatchObject({ pass: true, measured: true });
    expect(gates.G2).toMatchObject({ pass: true, measured: true });
    expect(gates.G4.evidence).not.toMatch(/mode drift|initial cue up to/);
    for (const g of ["G3", "G4", "G5"]) expect(gates[g]).toMatchObject({ pass: null, measured: false });
  }, 300_000);
});
