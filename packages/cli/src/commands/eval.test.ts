// `cadre eval` in-process through main(): exit codes, progress on stderr, the --json contract.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
let dir: string;

const cli = (...argv: string[]) => runCli(argv, ENV);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("cadre eval", () => {
  it("help, and bad usage exits 2 with a message", async () => {
    const help = await cli("eval", "--help");
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/cadre eval record --profile P --out DIR/);
    expect(help.out).toMatch(
      /no-hiring-instruction \[G4\]: the team-building mode document drops its hiring instruction/,
    );
    expect(help.out).toMatch(/--cassettes MODE +off \| record \| replay/);
    const strayDir = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--baseline",
      dir,
      "--cassettes-dir",
      dir,
    );
    expect(strayDir).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /eval run: --cassettes-dir needs --cassettes record, replay or replay-or-record/,
      ),
    });
    const badMode = await cli(
      "eval",
      "record",
      "--profile",
      "semantic",
      "--out",
      join(dir, "x"),
      "--cassettes",
      "yes",
    );
    expect(badMode).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /--cassettes must be one of off, record, replay, replay-or-record \(got "yes"\)/,
      ),
    });
    expect((await cli("eval")).code).toBe(2);
    // --min-pass below 0.5 would pass a scenario that fails more often than it passes.
    for (const bad of ["0", "0.2", "1.5", "abc"]) {
      const minPass = await cli("eval", "compare", "--baseline", dir, "--candidate", dir, "--min-pass", bad);
      expect(minPass).toMatchObject({
        code: 2,
        err: expect.stringMatching(
          new RegExp(`--min-pass must be a number from 0\\.5 to 1 \\(got "${bad}"\\)`),
        ),
      });
    }
    expect(help.out).toMatch(/--trajectory MODE +how each sample's tool calls are matched/);
    const noBaseline = await cli("eval", "run", "--profile", "semantic");
    expect(noBaseline).toMatchObject({
      code: 2,
      err: expect.stringMatching(/eval run: --baseline is required/),
    });
    const badProfile = await cli("eval", "record", "--profile", "nope", "--out", join(dir, "x"));
    expect(badProfile).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown profile "nope"; profiles: semantic, legacy/),
    });
    const misplaced = await cli("eval", "scenarios", "--baseline", dir);
    expect(misplaced).toMatchObject({
      code: 2,
      err: expect.stringMatching(/eval scenarios: --baseline does not apply here/),
    });
    const notARecording = await cli("eval", "run", "--profile", "semantic", "--baseline", dir);
    expect(notARecording).toMatchObject({
      code: 2,
      err: expect.stringMatching(/manifest\.json: cannot read the recording manifest/),
    });
  });

  it("`eval scenarios` lists the built-in states; a bad user file is named with its field (exit 2)", async () => {
    const listed = await cli("eval", "scenarios", "--json");
    expect(listed.code).toBe(0);
    expect(listed.json().scenarios.length).toBeGreaterThanOrEqual(12);
    expect(listed.err).toMatch(/no-ready-connector\s+team-building\s+team 0, approvals none, ready: none/);
    const mine = join(dir, "mine");
    await rm(mine, { recursive: true, force: true });
    await mkdir(mine);
    await writeFile(
      join(mine, "broken.json"),
      JSON.stringify({
        schemaVersion: 1,
        id: "b",
        title: "B",
        expectMode: "team-building",
        company: { name: "B" },
        connectors: [{ id: "offline", kind: "offline", ready: "yes" }],
      }),
    );
    const bad = await cli("eval", "scenarios", "--scenarios", mine);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/broken\.json: connectors\[0\]\.ready: must be true or false, got a string/);
  });

  it("record, then run --json: progress, tables and gate matrix on stderr, stdout the SPEC §4 line alone, exit 0", async () => {
    const baseline = join(dir, "baseline");
    const recorded = await cli(
      "eval",
      "record",
      "--profile",
      "semantic",
      "--samples",
      "1",
      "--seed",
      "4",
      "--out",
      baseline,
      "--cassettes",
      "record",
    );
    expect(recorded.code).toBe(0);
    expect(recorded.err).toMatch(/^\[ ?\d+\/16\] \S+ #0 /m);
    const run = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--samples",
      "1",
      "--baseline",
      baseline,
      "--out",
      join(dir, "report"),
      "--json",
    );
    expect(run.err).toMatch(/\[16\/16\]/);
    expect(run.err).toMatch(/Gate matrix/);
    expect(run.out.trimEnd().split("\n")).toHaveLength(1);
    expect(run.code).toBe(0);
    const summary = run.json();
    expect(Object.keys(summary)).toEqual(
      expect.arrayContaining(["scenarios", "toolCoverage", "cueTokens", "gates"]),
    );
    // A scripted run's scenario rows claim no pass: behaviour was not measured, the plumbing held.
    expect(summary.scenarios[0]).toMatchObject({
      id: expect.any(String),
      passed: null,
      measured: false,
      result: "plumbing ok",
    });
    const rows = run.err.split("\n").filter((l) => /\(k=\d+, \d+\/\d+\)/.test(l));
    expect(rows).toHaveLength(16);
    for (const row of rows) expect(row).not.toMatch(/\bPASS\b/);
    expect(rows.join("\n")).toMatch(/^empty-no-goal .* plumbing ok /m);
    expect(run.err).toMatch(/warning: pass\^3 needs 3 samples; with --samples 1/);
    expect(Object.keys(summary.gates)).toEqual(["G1", "G2", "G3", "G4", "G5"]);
    // Plumbing passes; behaviour from the scripted model is not measured (SPEC §5 gate shape).
    for (const g of ["G1", "G2"])
      expect(summary.gates[g]).toEqual({
        pass: true,
        measured: true,
        source: "scripted",
        verdict: true,
        undecided: null,
        evidence: expect.any(String),
      });
    for (const g of ["G3", "G4", "G5"])
      expect(summary.gates[g]).toEqual({
        pass: null,
        measured: false,
        source: "scripted",
        verdict: true,
        undecided: null,
        evidence: expect.stringMatching(/^behaviour not measured: the offline model is scripted/),
      });
    expect(run.err).toMatch(/G3 +NOT MEASURED/);
    expect(run.err).toMatch(/RESULT: no gate failed; G3, G4, G5 without a verdict/);
    expect(summary.toolCoverage).toBe(1);
    expect(summary.cueTokens).toBeLessThanOrEqual(80);

    const compared = await cli(
      "eval",
      "compare",
      "--baseline",
      baseline,
      "--candidate",
      join(dir, "report", "candidate"),
      "--out",
      join(dir, "compare"),
    );
    expect(compared.code).toBe(0);
  });

  it("a broken candidate exits 1 and says which gate failed and why", async () => {
    const baseline = join(dir, "baseline");
    const run = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--samples",
      "1",
      "--baseline",
      baseline,
      "--break",
      "hide-tool",
      "--out",
      join(dir, "broken"),
      "--json",
    );
    expect(run.code).toBe(1);
    expect(run.json().gates.G3).toMatchObject({
      pass: false,
      measured: false,
      evidence: expect.stringMatching(/hire_agent not offered in \d+ hiring state\(s\)/),
    });
    expect(run.json().gates.G2.evidence).toMatch(/offered in 0\/\d+ observed samples/);
    expect(run.err).toMatch(/RESULT: G2, G3, G5 failed/);
  });

  it("a mode document without the hiring instruction: offline, G4's rules fail it, but the gate says not measured (exit 0: no plumbing failed)", async () => {
    const run = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--samples",
      "1",
      "--baseline",
      join(dir, "baseline"),
      "--break",
      "no-hiring-instruction",
      "--out",
      join(dir, "no-hiring"),
      "--json",
    );
    expect(run.code).toBe(0);
    const { gates, scenarios } = run.json();
    expect(gates.G3.verdict).toBe(true);
    expect(gates.G4).toEqual({
      pass: null,
      measured: false,
      source: "scripted",
      verdict: false,
      undecided: null,
      evidence: expect.stringMatching(
        /behaviour differs in \d+ scenario\(s\): empty-no-goal \(pass\^1 0\.00 < 0\.5: hire count 1\/1.*hire count: 1 hire\(s\) \(baseline band [2-6]–[3-6]\)/,
      ),
    });
    // The rules see the difference (verdict), but a scripted run's row claims neither pass nor fail.
    expect(scenarios.find((s: { id: string }) => s.id === "empty-single-connector")).toMatchObject({
      passed: null,
      verdict: false,
      result: "plumbing ok",
      hires: { candidateMedian: 1 },
    });
    // States that are not team building keep their mode document, and their behaviour.
    expect(scenarios.find((s: { id: string }) => s.id === "partial-team")).toMatchObject({
      verdict: true,
      passed: null,
    });
    expect(run.err).toMatch(/BROKEN: no-hiring-instruction/);
  });

  it("replays the baseline's cassettes offline, marks the samples replayed, and stops on a request it never recorded", async () => {
    const baseline = join(dir, "baseline");
    const run = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--samples",
      "1",
      "--baseline",
      baseline,
      "--cassettes",
      "replay",
      "--out",
      join(dir, "replayed"),
      "--json",
    );
    expect(run.code).toBe(0);
    expect(run.err).toMatch(
      /samples: baseline 16 offline; candidate 16 replayed — replayed samples answer from cassettes/,
    );
    expect(run.json().gates.G5.evidence).toMatch(
      /usage of 16\/16 candidate sample\(s\) replayed from cassettes: recorded, not live/,
    );
    const missing = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--samples",
      "2",
      "--only",
      "partial-team",
      "--baseline",
      baseline,
      "--cassettes",
      "replay",
      "--out",
      join(dir, "missing"),
    );
    expect(missing).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /cassette miss: scenario partial-team, sample 1: no recording for request [0-9a-f]{64} in \S+partial-team/,
      ),
    });
  });

  it("a changed tool is a miss naming tools; --cassettes replay-or-record records what replay missed", async () => {
    const baseline = join(dir, "baseline");
    const hidden = await cli(
      "eval",
      "run",
      "--profile",
      "semantic",
      "--samples",
      "1",
      "--only",
      "partial-team",
      "--baseline",
      baseline,
      "--cassettes",
      "replay",
      "--break",
      "hide-tool",
      "--out",
      join(dir, "hidden"),
    );
    expect(hidden).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /cassette miss: scenario partial-team, sample 0: .*differs in tools: tools changed/,
      ),
    });
    // A copy of the baseline's cassettes, so the baseline itself stays as recorded.
    const copy = join(dir, "cassettes-copy");
    await cp(join(baseline, "cassettes"), copy, { recursive: true });
    const args = [
      "--profile",
      "semantic",
      "--samples",
      "2",
      "--only",
      "partial-team",
      "--baseline",
      baseline,
    ];
    const filled = await cli(
      "eval",
      "run",
      ...args,
      "--cassettes",
      "replay-or-record",
      "--cassettes-dir",
      copy,
      "--out",
      join(dir, "filled"),
    );
    expect(filled.out).toMatch(/samples: baseline 16 offline; candidate 1 replayed, 1 offline/);
    const again = await cli(
      "eval",
      "run",
      ...args,
      "--cassettes",
      "replay",
      "--cassettes-dir",
      copy,
      "--out",
      join(dir, "again"),
    );
    expect(again.out).toMatch(/samples: baseline 16 offline; candidate 2 replayed —/);
  });
});
