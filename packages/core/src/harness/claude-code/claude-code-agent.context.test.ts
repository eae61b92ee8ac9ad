// The context policy in the Claude Code harness (MC-8, MC-9), through the real Agent SDK and the
// OFFLINE stand-in executable (__fixtures__/offline-claude-code.mjs) in sequential mode: each query()
// — a product turn's prompt or the host's /compact — plays the scenario's next turn, in Claude Code's
// own stream-json format (status / compact_boundary lines as the CLI writes them). Nothing reaches a vendor.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../models/registry.js";
import { contextReportOf } from "../../session/context-report.js";
import type { AgentEvent } from "../../types.js";
import { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./claude-code-agent.js";
import { collect, ofType, compactions, snapshotOf } from "../../testing/events.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const STAND_IN = join(FIXTURES, "offline-claude-code.mjs");

let dir: string;
let logFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-claude-code-context-"));
  logFile = join(dir, "stand-in.log.jsonl");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function agent(scenario: string, options: Partial<ClaudeCodeAgentOptions> = {}) {
  return new ClaudeCodeAgent(
    {
      sessionId: "run_ctx",
      systemPrompt: "You are the CEO of Acme.",
      model: resolveModel("claude-sonnet-4-5-20250929"),
      tools: [],
    },
    {
      executablePath: STAND_IN,
      env: {
        PATH: process.env["PATH"],
        HOME: dir,
        CLAUDE_CONFIG_DIR: dir,
        CADRE_OFFLINE_CLAUDE_SCENARIO: join(FIXTURES, scenario),
        CADRE_OFFLINE_CLAUDE_LOG: logFile,
        CADRE_OFFLINE_CLAUDE_SEQUENTIAL: "1",
        DISABLE_AUTO_COMPACT: "1", // inherited from an operator's shell: must not reach Claude Code (MC-8)
      },
      cwd: dir,
      ...options,
    },
  );
}

/** What each query() sent Claude Code: the prompt and the session it resumed (null: a fresh session). */
async function sent(): Promise<Array<{ prompt: string; resume: string | null; sessionId: string }>> {
  const lines = (await readFile(logFile, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
  return lines
    .filter((l) => l.kind === "user")
    .map((l) => ({ prompt: l.prompt, resume: l.resume, sessionId: l.sessionId }));
}

describe("Claude Code context policy (MC-8, MC-9)", () => {
  // 181,510 of 200,000 tokens after the first turn: 90.8% of the window.
  it.each([
    {
      rule: "MC-8 claude-code: injects /compact at the 90% default threshold before the next send",
      scenario: "context-compact.jsonl",
      threshold: undefined,
      prompts: ["A", "/compact", "B"],
    },
    {
      rule: "MC-8 claude-code: an explicit 95% override wins — no /compact at 90.8%",
      scenario: "context-no-compact.jsonl",
      threshold: 0.95,
      prompts: ["A", "B"],
    },
    {
      rule: "MC-8 claude-code: below the threshold nothing is injected",
      scenario: "resume.jsonl",
      threshold: undefined,
      prompts: ["A", "B"],
    },
  ])("$rule", async ({ scenario, threshold, prompts }) => {
    const a = agent(scenario, threshold === undefined ? {} : { compactThreshold: threshold });
    const first = await collect(a.send("A"));
    const second = await collect(a.send("B"));
    expect([...ofType(first, "terminal"), ...ofType(second, "terminal")].map((e) => e.status)).toEqual([
      "done",
      "done",
    ]);
    const log = await sent();
    expect(log.map((l) => l.prompt)).toEqual(prompts);
    // Every query after the first resumes the same Claude Code session: compaction keeps the window.
    expect(new Set(log.map((l) => l.sessionId)).size).toBe(1);
    expect(snapshotOf(first)).toMatchObject({
      harness: "claude-code",
      contextWindow: 200000,
      threshold: threshold ?? 0.9,
      thresholdSource: threshold === undefined ? "default" : "override",
      needsRollover: false,
    });
    expect(ofType(second, "rollover")).toEqual([]);
  });

  it("MC-8 claude-code: the injected compact is consumed into compaction events, occupancy and the digest", async () => {
    const a = agent("context-compact.jsonl");
    await collect(a.send("A"));
    const events = await collect(a.send("B"));
    expect(compactions(events)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true, tokensBefore: 181510, tokensAfter: 12000 },
    ]);
    // The compaction ends before the prompt's answer starts.
    expect(events.findIndex((e) => e.type === "compaction_end")).toBeLessThan(
      events.findIndex((e) => e.type === "turn_start"),
    );
    expect(snapshotOf(events)).toMatchObject({
      tokensInWindow: 12320,
      compactions: { count: 1, succeeded: 1 },
      lastCompaction: { result: "ok", tokensBefore: 181510, tokensAfter: 12000 },
    });
    expect(contextReportOf(events).compactions).toEqual([
      { reason: "threshold", ok: true, tokensBefore: 181510, tokensAfter: 12000 },
    ]);
  });

  it("MC-8 claude-code: native auto-compaction is never disabled (no setting, no inherited switch)", async () => {
    await collect(agent("resume.jsonl").send("A"));
    const lines = (await readFile(logFile, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, any>);
    const argv = lines.find((l) => l.kind === "argv")!.argv as string[];
    expect(argv.join(" ")).not.toMatch(/compact/i);
    const init = lines.find((l) => l.kind === "control_request" && l.subtype === "initialize")!.request;
    expect(JSON.stringify(init)).not.toMatch(/autoCompact/i);
    expect(lines.find((l) => l.kind === "argv")!.compactionOff).toEqual([]);
  });

  it("MC-9 claude-code: a transient overload of the injected compact never latches; the compact is retried next turn", async () => {
    const a = agent("context-compact-overloaded.jsonl");
    await collect(a.send("A"));
    const second = await collect(a.send("B"));
    expect(compactions(second)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: false, error: expect.stringContaining("overloaded_error") },
    ]);
    expect(snapshotOf(second)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "transient" },
    });
    const third = await collect(a.send("C"));
    expect(compactions(third)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true, tokensBefore: 181830, tokensAfter: 11800 },
    ]);
    expect([...second, ...third].filter((e) => e.type === "rollover")).toEqual([]);
    expect((await sent()).map((l) => l.prompt)).toEqual(["A", "/compact", "B", "/compact", "C"]);
    expect(snapshotOf(third)).toMatchObject({
      needsRollover: false,
      compactions: { count: 2, succeeded: 1 },
    });
  });

  it.each([
    {
      rule: "MC-9 claude-code: an invalid-request 400 on the injected compact latches; the same send starts fresh from the handoff",
      scenario: "context-compact-invalid.jsonl",
      reason: /invalid request/i,
      prompts: ["Build the team", "/compact", "handoff"],
    },
    {
      rule: "MC-9 claude-code: occupancy ≥ 100% latches (no /compact into a full window); the next send starts fresh from the handoff",
      scenario: "context-full.jsonl",
      reason: /occupancy ≥ 100%/,
      prompts: ["Build the team", "handoff"],
    },
  ])("$rule", async ({ scenario, reason, prompts }) => {
    const a = agent(scenario);
    const first = await collect(a.send("Build the team"));
    const oldSession = a.vendorSessionId;
    const second = await collect(a.send("B"));
    const [rollover] = ofType(second, "rollover");
    expect(rollover).toMatchObject({
      type: "rollover",
      reason: expect.stringMatching(reason),
      handoffBytes: expect.any(Number),
      tokensBefore: expect.any(Number),
    });
    expect(ofType(second, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const log = await sent();
    expect(log.map((l) => (l.prompt.startsWith("# Handoff") ? "handoff" : l.prompt))).toEqual(prompts);
    // The old session is closed for good: the fresh window is a new session, never a resume.
    const fresh = log.at(-1)!;
    expect(fresh.resume).toBeNull();
    expect(fresh.sessionId).not.toBe(oldSession);
    expect(fresh.prompt).toMatch(
      /## Task\nBuild the team[\s\S]*assistant: Step one done\.[\s\S]*\n---\n\nB$/,
    );
    expect(a.vendorSessionId).toBe(fresh.sessionId);
    expect(snapshotOf(first).needsRollover).toBe(prompts.length === 2);
    expect(snapshotOf(second)).toMatchObject({ needsRollover: false, rollovers: 1 });
  });

  it("MC-9 claude-code: a failed manual /compact never latches (not even a deterministic 400)", async () => {
    const a = agent("context-manual-fail.jsonl");
    const first = await collect(a.send("A"));
    const manual = await collect(a.send("/compact"));
    expect(compactions(manual)).toEqual([
      { type: "compaction_start", reason: "manual" },
      { type: "compaction_end", ok: false, error: expect.stringContaining("invalid_request_error") },
    ]);
    expect(snapshotOf(manual)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "deterministic", reason: expect.stringContaining("manual: never latches") },
    });
    const next = await collect(a.send("B"));
    expect(ofType(next, "rollover")).toEqual([]);
    const log = await sent();
    expect(log.map((l) => [l.prompt, l.resume === null ? "fresh" : "resumed"])).toEqual([
      ["A", "fresh"],
      ["/compact", "resumed"],
      ["B", "resumed"],
    ]);
    expect(ofType(first, "terminal")[0]!.status).toBe("done");
  });

  it("MC-9 claude-code: stop interrupting the injected compact only clears its fired flag; nothing re-injects on the next send", async () => {
    const a = agent("context-compact-stop.jsonl");
    await collect(a.send("A"));
    const stopped: AgentEvent[] = [];
    for await (const e of a.send("B")) {
      stopped.push(e);
      if (e.type === "compaction_start") a.cancel();
    }
    expect(ofType(stopped, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(snapshotOf(stopped)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "interrupted" },
    });
    const next = await collect(a.send("C"));
    expect(compactions(next)).toEqual([]);
    expect(ofType(next, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect((await sent()).map((l) => l.prompt)).toEqual(["A", "/compact", "C"]);
  });
});
