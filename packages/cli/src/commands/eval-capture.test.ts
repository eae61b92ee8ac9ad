// `cadre eval capture`: a recorded run becomes a scenario seeded exactly as the run started (even
// after the company moved on), `eval scenarios` lists it with its label, the next `eval run`
// includes it, a candidate that repeats the captured behaviour fails it and one that does not is
// not failed. Real store, real offline runs through the CLI.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_SCENARIOS_DIR, TEAM_BUILDING_BASELINE_DIR } from "@cadre/evals";
import { openStore } from "@cadre/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
let data: string;
let firstRun: string;
let secondRun: string;

async function runsOf(dataDir: string) {
  const store = await openStore({ path: join(dataDir, "cadre.db"), readonly: true });
  try {
    return (await store.listRuns()).sort((a, b) => (a.startedAt < b.startedAt ? -1 : 1));
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-capture-"));
  data = join(dir, "data");
  // Production: the CEO builds its team and files; the operator approves; the CEO is woken again.
  expect((await runCli(["demo", "--data", data, "--json"])).code).toBe(0);
  const approval = (await runCli(["approvals", "list", "--data", data, "--json"])).json();
  const id = (approval.items ?? approval.approvals ?? approval)[0].id as string;
  expect((await runCli(["approvals", "approve", id, "--data", data])).code).toBe(0);
  const ceo = (await runsOf(data))[0]?.agentId as string;
  expect((await runCli(["wake", ceo, "--data", data, "--json"])).code).toBe(0);
  [firstRun, secondRun] = (await runsOf(data)).map((r) => r.id) as [string, string];
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = async (file: string) => JSON.parse(await readFile(file, "utf8"));

describe("cadre eval capture", () => {
  it("rebuilds the state each run started from, after the company has moved on", async () => {
    const first = join(dir, "start", "first-run.json");
    const c1 = await runCli(["eval", "capture", firstRun, "--data", data, "--out", first, "--json"]);
    expect(c1.code).toBe(0);
    const f1 = await read(first);
    // The first run started with an empty team and nothing filed, woken by the operator's start.
    expect(f1).toMatchObject({
      id: "first-run",
      expectMode: "team-building",
      trigger: "start_team_building",
      team: [],
      approvals: [],
    });
    expect(f1.captured).toMatchObject({
      run: { id: firstRun },
      expect: "hold",
      behaviour: { modeAfter: "awaiting-approval", terminal: "done" },
    });
    expect(f1.captured.behaviour.approvalsFiled).toEqual([{ type: "approve_ceo_strategy" }]);
    expect(f1.captured.behaviour.hires.length).toBeGreaterThanOrEqual(1);
    // Free text never becomes an argument to match; ids and closed sets do.
    for (const call of f1.captured.behaviour.toolCalls) expect(Object.keys(call.args)).not.toContain("name");

    const second = join(dir, "start", "second-run.json");
    expect((await runCli(["eval", "capture", secondRun, "--data", data, "--out", second])).code).toBe(0);
    const f2 = await read(second);
    expect(f2).toMatchObject({ expectMode: "operating", trigger: "approval_decided" });
    expect(f2.team).toHaveLength(f1.captured.behaviour.hires.length);
    expect(f2.approvals).toEqual([
      expect.objectContaining({ type: "approve_ceo_strategy", status: "approved" }),
    ]);
    expect(f2.captured.behaviour.toolCalls.map((c: { name: string }) => c.name)).toContain("create_task");
    // Both read back as scenarios.
    const listed = await runCli(["eval", "scenarios", "--scenarios", join(dir, "start"), "--json"]);
    expect(listed.code).toBe(0);
    expect(listed.json().scenarios.map((s: { id: string }) => s.id)).toEqual(["first-run", "second-run"]);
  });

  it("refuses bad input with what is allowed, and writes nothing", async () => {
    const out = join(dir, "bad");
    const cases: [string[], RegExp][] = [
      [["run_nope", "--out", join(out, "x.json")], /no run run_nope in this data directory/],
      [
        [firstRun, "--out", join(out, "x.json"), "--label", "bad-tool"],
        /--label must be one of wrong-tool, wrong-argument, unintended-action, missed-step, other/,
      ],
      [
        [firstRun, "--out", join(out, "Not An Id.json")],
        /--out must be a \.json file whose name is the scenario's id/,
      ],
      [[firstRun], /--out FILE is required/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(["eval", "capture", ...args, "--data", data]);
      expect(r).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    }
    expect(await readdir(out).catch(() => [])).toEqual([]);
    const existing = join(dir, "start", "first-run.json");
    const before = await readFile(existing, "utf8");
    const again = await runCli(["eval", "capture", secondRun, "--data", data, "--out", existing]);
    expect(again).toMatchObject({ code: 2, err: expect.stringMatching(/exists already/) });
    expect(await readFile(existing, "utf8")).toBe(before);
  });

  it("round-trips: eval run includes the captured scenario and fails a candidate that repeats it", async () => {
    const captured = join(dir, "captured");
    const cap = await runCli([
      "eval",
      "capture",
      firstRun,
      "--data",
      data,
      "--label",
      "unintended-action",
      "--note",
      "hired and filed without asking",
      "--out",
      join(captured, "hired-without-asking.json"),
    ]);
    expect(cap.code).toBe(0);
    const listed = (await runCli(["eval", "scenarios", "--scenarios", captured, "--json"])).json();
    expect(listed.scenarios[0]).toMatchObject({
      id: "hired-without-asking",
      captured: { run: firstRun, label: "unintended-action", expect: "avoid" },
    });
    const run = (...extra: string[]) =>
      runCli([
        "eval",
        "run",
        "--profile",
        "semantic",
        "--baseline",
        TEAM_BUILDING_BASELINE_DIR,
        "--scenarios",
        BUILTIN_SCENARIOS_DIR,
        "--scenarios",
        captured,
        "--samples",
        "2",
        "--out",
        join(dir, `report${extra.join("")}`),
        "--json",
        ...extra,
      ]);
    // The unchanged candidate does what the captured run did: the scenario fails, and so does the run.
    const repeat = await run();
    const summary = repeat.json();
    expect(summary.captured).toEqual([
      expect.objectContaining({ id: "hired-without-asking", label: "unintended-action", result: "fail" }),
    ]);
    expect(summary.captured[0].evidence).toMatch(/repeats the captured unintended-action/);
    expect(Object.values(summary.gates).every((g) => (g as { pass: boolean | null }).pass !== false)).toBe(
      true,
    );
    expect(summary.passed).toBe(false);
    expect(repeat.code).toBe(1);
    expect(repeat.err).toMatch(/FAIL {2}hired-without-asking — unintended-action, to avoid/);
    const md = await readFile(join(dir, "report", "report.md"), "utf8");
    expect(md).toMatch(
      /## Captured scenarios[\s\S]*\| hired-without-asking \| unintended-action, to avoid \| FAIL \|/,
    );
    // A candidate that never hires does not repeat it; on scripted answers that is not a pass.
    const other = (await run("--break", "hide-tool")).json();
    expect(other.captured[0]).toMatchObject({
      id: "hired-without-asking",
      result: "not measured",
      measured: false,
    });
    expect(other.captured[0].samples.every((s: { failed: boolean }) => !s.failed)).toBe(true);
  }, 120_000);
});
