// `cadre eval sensitivity` as a user runs it: generated mutants from several operators, each with
// its id, operator, diff and the gate (and scenario) that killed it or `survived`; the score; on a
// scripted connector the record says behaviour is not measured. Bad input is named.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEAM_BUILDING_BASELINE_DIR } from "@cadre/evals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-sensitivity-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("cadre eval sensitivity", () => {
  it("--json lists generated mutants with their operator, diff and killedBy or survived, and the score", async () => {
    const record = join(dir, "offline.json");
    const run = await runCli([
      "eval",
      "sensitivity",
      "--baseline",
      TEAM_BUILDING_BASELINE_DIR,
      "--samples",
      "1",
      "--limit",
      "11",
      "--out",
      join(dir, "out"),
      "--record",
      record,
      "--json",
    ]);
    expect(run.code).toBe(0);
    const json = run.json();
    expect(json).toMatchObject({
      connector: "offline",
      measured: false,
      certifies: false,
      total: 11,
      k: 3,
      seed: 1,
    });
    expect(json.why).toMatch(/scripted answers/);
    expect(new Set(json.mutants.map((m: { operator: string }) => m.operator)).size).toBe(11);
    for (const m of json.mutants) {
      expect(m).toMatchObject({ id: expect.stringMatching(/^[a-z0-9-]+$/), operator: expect.any(String) });
      expect(m.diff).toMatch(/^--- /);
      expect("killedBy" in m !== "survived" in m).toBe(true);
      if (m.killedBy) expect(m.killedBy.gate).toMatch(/^G[1-5]$/);
    }
    expect(json.score).toBe(json.killed / (json.total - json.equivalent));
    expect(json.lockHash).toMatch(/^[0-9a-f]{64}$/);
    // Progress per mutant on stderr; the record kept where --record says, with what it measured.
    expect(run.err).toMatch(/mutant 11\/11 /);
    expect(run.err).toMatch(/behaviour gates on offline stay "not measured"/);
    const kept = JSON.parse(await readFile(record, "utf8"));
    expect(kept).toMatchObject({
      kind: "cadre-eval-sensitivity",
      version: 2,
      connector: "offline",
      measured: false,
    });
  }, 300_000);

  it("an unknown --operator or a bad --limit is named with what is allowed", async () => {
    const bad = await runCli([
      "eval",
      "sensitivity",
      "--baseline",
      TEAM_BUILDING_BASELINE_DIR,
      "--operator",
      "reverse",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /--operator "reverse" is not an operator; operators: delete-line, negate-imperative/,
    );
    const limit = await runCli([
      "eval",
      "sensitivity",
      "--baseline",
      TEAM_BUILDING_BASELINE_DIR,
      "--limit",
      "0",
    ]);
    expect(limit.code).toBe(2);
    expect(limit.err).toMatch(/--limit must be a whole number ≥ 1/);
  });
});
