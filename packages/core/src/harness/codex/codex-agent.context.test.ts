// The context policy in the Codex harness (MC-8, MC-9, MC-11), through the real @openai/codex-sdk
// and the OFFLINE stand-in executable (__fixtures__/offline-codex.mjs) in sequential mode: each
// `codex exec` run plays the scenario's next run, resumed or on a new thread, in the
// `--experimental-json` format Codex writes (its compaction messages as its core emits them).
// Nothing reaches a vendor.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../models/registry.js";
import { CodexAgent } from "./codex-agent.js";
import { collect, ofType, compactions, snapshotOf } from "../../testing/events.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const STAND_IN = join(FIXTURES, "offline-codex.mjs");

let dir: string;
let logFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-context-"));
  logFile = join(dir, "stand-in.log.jsonl");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function agent(scenario: string) {
  return new CodexAgent(
    {
      sessionId: "run_ctx",
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
        CADRE_OFFLINE_CODEX_SCENARIO: join(FIXTURES, scenario),
        CADRE_OFFLINE_CODEX_LOG: logFile,
        CADRE_OFFLINE_CODEX_SEQUENTIAL: "1",
      },
      cwd: dir,
    },
  );
}

/** Each exec run: its prompt, the thread it resumed (null: a new thread) and the thread it ran on. */
async function runs(): Promise<Array<{ prompt: string; resume: string | null; threadId: string }>> {
  const lines = (await readFile(logFile, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
  return lines
    .filter((l) => l.kind === "run")
    .map((l) => ({ prompt: l.prompt, resume: l.resume, threadId: l.threadId }));
}

describe("Codex context policy (MC-8, MC-9, MC-11)", () => {
  it("MC-8 codex: native compaction is consumed into compaction events and the digest; occupancy from the turn's usage", async () => {
    const events = await collect(agent("context-remote-compact-fail.jsonl").send("Build the team"));
    expect(compactions(events)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true },
    ]);
    // The post-compaction warning is not an error.
    expect(ofType(events, "error")).toEqual([]);
    // 300,000 tokens read by a one-call turn, of gpt-5's 400,000: 75%.
    expect(snapshotOf(events)).toMatchObject({
      harness: "codex",
      contextWindow: 400000,
      tokensInWindow: 300000,
      occupancy: 0.75,
      threshold: 0.9,
      needsRollover: false,
      compactions: { count: 1, succeeded: 1 },
    });
  });

  it("MC-9 codex: a remote-compact hard failure with invalid_encrypted_content latches; the next send starts a new thread from the handoff", async () => {
    const a = agent("context-remote-compact-fail.jsonl");
    await collect(a.send("Build the team"));
    const oldThread = a.vendorSessionId;
    const failed = await collect(a.send("B"));
    expect(compactions(failed)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      {
        type: "compaction_end",
        ok: false,
        error: expect.stringMatching(/^Error running remote compact task: .*invalid_encrypted_content/),
      },
    ]);
    expect(ofType(failed, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringContaining("remote compact task") },
    ]);
    expect(snapshotOf(failed)).toMatchObject({
      needsRollover: true,
      latchReason: expect.stringContaining("remote compact hard failure"),
      lastCompaction: { result: "deterministic" },
    });

    const fresh = await collect(a.send("C"));
    expect(ofType(fresh, "rollover")).toEqual([
      {
        type: "rollover",
        reason: expect.stringContaining("needsRollover latched"),
        handoffBytes: expect.any(Number),
        tokensBefore: 300000,
        tokensAfter: expect.any(Number),
      },
    ]);
    expect(ofType(fresh, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const log = await runs();
    // Never resumed again: the new thread got the handoff, then this send's prompt.
    expect(log[2]!.resume).toBeNull();
    expect(log[2]!.threadId).not.toBe(oldThread);
    expect(log[2]!.prompt).toMatch(
      /^# Handoff[\s\S]*## Task\nBuild the team[\s\S]*assistant: Step one done\.[\s\S]*\n---\n\nC$/,
    );
    expect(snapshotOf(fresh)).toMatchObject({ needsRollover: false, rollovers: 1 });
    // The next turn resumes the new thread; its first total is its own, not an increment of the old one's.
    const next = await collect(a.send("D"));
    expect((await runs())[3]).toMatchObject({ resume: log[2]!.threadId, prompt: "D" });
    expect(ofType(next, "usage").map((e) => e.usage)).toEqual([
      { input: 2200, output: 250, cacheRead: 5800, cacheWrite: 0 },
    ]);
  });

  it.each([
    {
      rule: "MC-9 codex: lone invalid_encrypted_content (stripped reasoning) is not a rollover",
      scenario: "context-lone-encrypted.jsonl",
      error: /invalid_encrypted_content/,
    },
    {
      rule: "MC-11 codex: an ordinary timeout never triggers rollover or replay",
      scenario: "context-timeout.jsonl",
      error: /timed out/,
    },
  ])("$rule", async ({ scenario, error }) => {
    const a = agent(scenario);
    await collect(a.send("A"));
    const failed = await collect(a.send("B"));
    expect(ofType(failed, "error").at(-1)!.message).toMatch(error);
    expect(ofType(failed, "terminal").map((e) => e.status)).toEqual(["failed"]);
    expect(compactions(failed)).toEqual([]);
    expect(ofType(failed, "recovery")).toEqual([]);
    expect(snapshotOf(failed)).toMatchObject({ needsRollover: false, replays: 0, rollovers: 0 });
    const next = await collect(a.send("C"));
    expect(ofType(next, "rollover")).toEqual([]);
    const log = await runs();
    // Nothing replayed: one run per send, and the same thread is resumed throughout.
    expect(log.map((r) => r.prompt)).toEqual(["A", "B", "C"]);
    expect(log.slice(1).map((r) => r.resume)).toEqual([log[0]!.threadId, log[0]!.threadId]);
  });
});
