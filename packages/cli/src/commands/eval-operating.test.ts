// `cadre eval operating` in-process through main(): the built-in scenarios
// pass their rule checks on the offline connector, and the report says honestly what it measured —
// the scripted model's behaviour checks are "n/m" (not measured), never a pass; a scenario that breaks
// a rule fails the command (exit 1); a bad scenario file is bad input (exit 2, one line).
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_OPERATING_DIR } from "@cadre/evals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-operating-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  source: string;
  passed: boolean;
  scenarios: Array<{
    id: string;
    passed: boolean;
    runs: number;
    modelCalls: number;
    checks: Array<{ id: string; kind: string; pass: boolean; measured: boolean; evidence: string }>;
  }>;
}

describe("cadre eval operating", () => {
  it("--json: stdout is the report alone; rules measured and passing, behaviour on the scripted model not measured", async () => {
    const r = await runCli(["eval", "operating", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split("\n")).toHaveLength(2); // one JSON line
    const report = JSON.parse(r.out) as Report;
    expect(report.source).toBe("scripted");
    expect(report.scenarios.map((s) => s.id)).toEqual([
      "ceo-delegation",
      "deliverable-review",
      "idle-schedule",
      "member-blocked-task",
      "review-bound",
    ]);
    for (const s of report.scenarios)
      for (const c of s.checks)
        if (c.kind === "rule") expect(c, `${s.id} ${c.id}`).toMatchObject({ pass: true, measured: true });
        else expect(c.measured, `${s.id} ${c.id}`).toBe(false);
    expect(report.scenarios.find((s) => s.id === "idle-schedule")).toMatchObject({ runs: 0, modelCalls: 0 });
    // The human stream (stderr with --json) marks the unmeasured check "n/m", not "pass".
    expect(r.err).toMatch(
      /^operating phase — scripted model \(offline\): rules measured; behaviour not measured/,
    );
    expect(r.err).toMatch(/\n {2}n\/m {3}leads-have-strategy-tasks +behaviour /);
    expect(r.err).not.toMatch(/pass {2}leads-have-strategy-tasks/);
    expect(r.err).toMatch(/\n {2}n\/m {3}deliverable-files-attached +behaviour /);
    expect(r.err).toMatch(/\n {2}pass {2}review-bound-escalates +rule /);
  }, 120_000);

  it("a scenario that breaks a rule fails the command; a malformed one is refused in one line", async () => {
    // The idle scenario with open work laid on it: its schedules now wake agents, so "zero model
    // calls on an idle schedule" fails — the check reads what happened, not what was hoped.
    const busy = join(dir, "busy");
    await cp(BUILTIN_OPERATING_DIR, busy, { recursive: true });
    const idle = JSON.parse(await readFile(join(busy, "idle-schedule.json"), "utf8")) as Record<
      string,
      unknown
    >;
    await writeFile(
      join(busy, "idle-schedule.json"),
      JSON.stringify({ ...idle, tasks: [{ key: "open", title: "Open work", assignee: "CTO" }] }),
    );
    const bound = JSON.parse(await readFile(join(busy, "review-bound.json"), "utf8")) as Record<
      string,
      unknown
    >;
    await writeFile(join(busy, "review-bound.json"), JSON.stringify({ ...bound, fileTools: [] }));
    const failed = await runCli(["eval", "operating", "--scenarios", busy, "--json"]);
    expect(failed.code, failed.err).toBe(1);
    const report = JSON.parse(failed.out) as Report;
    expect(report.passed).toBe(false);
    const check = report.scenarios
      .find((s) => s.id === "idle-schedule")!
      .checks.find((c) => c.id === "idle-schedule-zero-calls")!;
    expect(check.pass).toBe(false);
    expect(check.evidence).toMatch(/[1-9]\d* runs, [1-9]\d* model calls/);
    // The review-bound scenario with the CTO's write tool given back: every hand-in has its file,
    // nothing is sent back past the bound, and the check says the bound was never reached.
    const roomy = report.scenarios
      .find((s) => s.id === "review-bound")!
      .checks.find((c) => c.id === "review-bound-escalates")!;
    expect(roomy.pass).toBe(false);
    expect(roomy.evidence).toMatch(
      /bound 1; 0 request\(s\) for changes by agents, 0 past the bound; 0 escalated/,
    );

    const bad = join(dir, "bad");
    await cp(BUILTIN_OPERATING_DIR, bad, { recursive: true });
    await writeFile(join(bad, "idle-schedule.json"), JSON.stringify({ ...idle, checks: ["no-such-check"] }));
    const refused = await runCli(["eval", "operating", "--scenarios", bad]);
    expect(refused.code).toBe(2);
    expect(refused.err.trimEnd().split("\n")).toHaveLength(1);
    expect(refused.err).toMatch(/idle-schedule\.json.*checks/);
  }, 120_000);
});
