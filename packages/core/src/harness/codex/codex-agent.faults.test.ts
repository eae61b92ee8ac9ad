// Codex faults the real binary cannot be made to produce against a stand-in model server, through
// real process boundaries: the real @openai/codex-sdk starts an OFFLINE stand-in executable
// (__fixtures__/offline-codex.mjs, its header says why each case is there) that replays a scenario in
// the `--experimental-json` format and starts the configured MCP servers as Codex does (required
// ones before the thread starts). Everything else runs on the real binary: codex-agent.test.ts.
// Nothing reaches a vendor.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../models/registry.js";
import { collect, ofType } from "../../testing/events.js";
import { CodexAgent, type CodexAgentOptions } from "./codex-agent.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const STAND_IN = join(FIXTURES, "offline-codex.mjs");

let dir: string;
let logFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-faults-"));
  logFile = join(dir, "stand-in.log.jsonl");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function agent(scenario: string, options: Partial<CodexAgentOptions> = {}) {
  return new CodexAgent(
    {
      sessionId: "run_test",
      systemPrompt: "You are the CEO of Acme.",
      model: resolveModel("gpt-5-2025-08-07"),
      tools: [],
    },
    {
      executablePath: STAND_IN,
      env: {
        PATH: process.env["PATH"],
        HOME: dir,
        CODEX_HOME: dir,
        CADRE_OFFLINE_CODEX_SCENARIO: scenario.startsWith("/") ? scenario : join(FIXTURES, scenario),
        CADRE_OFFLINE_CODEX_LOG: logFile,
      },
      cwd: dir,
      ...options,
    },
  );
}

/**
 * One scenario from recorded-format fixture files, each one exec run of the thread (their own
 * thread.started lines dropped: the stand-in executable writes the thread it runs).
 */
async function scenario(...files: string[]): Promise<string> {
  const runs = await Promise.all(
    files.map(async (f) =>
      (await readFile(join(FIXTURES, f), "utf8"))
        .split("\n")
        .filter((l) => !l.includes('"thread.started"'))
        .join("\n"),
    ),
  );
  const path = join(dir, "scenario.jsonl");
  await writeFile(path, runs.join('\n{"$":"next_turn"}\n'));
  return path;
}

describe("Codex faults a real binary cannot produce (offline stand-in executable)", () => {
  it("a stream cut mid-item is an error event naming the cause, the open turn fails closed", async () => {
    const events = await collect(agent("cut.jsonl").send("hi"));
    const error = ofType(events, "error").at(-1)!;
    expect(error.code).toBe("truncated");
    expect(error.message).toMatch(
      /Codex Exec exited with code 1.*connection reset.*turn\.completed or turn\.failed/s,
    );
    expect(ofType(events, "turn_end")).toEqual([{ type: "turn_end", turn: 1, stopReason: "error" }]);
    expect(ofType(events, "terminal")).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: expect.stringContaining("Codex Exec exited with code 1"),
      },
    ]);
  });

  it("MC-11: reconnect notices are not progress — even a notice every 100 ms never keeps the run alive past the watchdog", async () => {
    const events = await collect(agent("reconnect-forever.jsonl", { watchdogMs: 1_500 }).send("hi"));
    expect(ofType(events, "error").filter((e) => e.code === "retrying").length).toBeGreaterThan(1);
    expect(ofType(events, "error").filter((e) => e.code === "watchdog")).toEqual([
      {
        type: "error",
        code: "watchdog",
        message: expect.stringMatching(
          /Codex only said it was reconnecting \(\d+ notice\(s\)\).*report only: no rollover, no replay/,
        ),
      },
    ]);
    expect(ofType(events, "terminal")).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: expect.stringContaining("report only: no rollover, no replay"),
      },
    ]);
    expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["error"]);
  });

  it('MC-14: a continuation that proves the yielded work ended ("Script completed") settles the claim: one done, the command\'s result reported once', async () => {
    const a = agent(
      await scenario("exec-yield/origin-code-mode.jsonl", "exec-yield/continuation-settled.jsonl"),
    );
    const events = await collect(a.send("Run the tests."));
    expect(ofType(events, "continuation").map((c) => c.action)).toEqual(["opened", "settled"]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const results = ofType(events, "tool_result").filter(
      (r) => r.toolUseId === "item_0" && r.isError === false,
    );
    expect(results.map((r) => r.content)).toContainEqual([{ type: "text", text: "Script completed" }]);
    const runs = (await readFile(logFile, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l["kind"] === "run");
    expect(runs.map((r) => String(r["prompt"]).slice(0, 40))).toEqual([
      "Run the tests.",
      "Your previous turn ended while work you ",
    ]);
    expect(a.isRunning).toBe(false);
  });

  it("MC-14: work that still reports running is waited on again within the budget, then Cadre stops waiting — one failed terminal", async () => {
    const a = agent(
      await scenario(
        "exec-yield/origin-code-mode.jsonl",
        "exec-yield/continuation-running.jsonl",
        "exec-yield/continuation-running.jsonl",
      ),
      { continuationBudget: 2 },
    );
    const events = await collect(a.send("Run the tests."));
    const continuation = ofType(events, "continuation");
    expect(continuation.map((c) => [c.action, c.attempt])).toEqual([
      ["opened", 1],
      ["opened", 2],
      ["lost-handle", 2],
    ]);
    expect(continuation[2]!.reason).toMatch(/still running after 2 continuation/);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: "continuation budget exhausted" },
    ]);
  });
});
