// The context policy in the Claude Code harness (MC-8, MC-9) on the REAL Claude Code binary against a
// loopback stand-in model server: the stand-in reports the usage a full window would (its answers'
// `usage`), and answers Claude Code's own summarisation request — successfully, with a 400 "prompt
// is too long", a 529, or never — so the compaction lines are the ones the real CLI writes.
// Nothing leaves loopback.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  isCompactionRequest,
  lastUserText,
  type Policy,
  reply,
  startStandin,
  type StandinServer,
} from "@cadre/standin";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../models/registry.js";
import { contextReportOf } from "../../session/context-report.js";
import type { AgentEvent } from "../../types.js";
import { collect, compactions, ofType, snapshotOf } from "../../testing/events.js";
import { claudeCodeTestEnv, REAL_CLAUDE_CODE } from "../../testing/real-harnesses.js";
import { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./claude-code-agent.js";

let dir: string;
let server: StandinServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-claude-code-context-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** How the stand-in answers Claude Code's summarisation request. */
type CompactAnswer = "summary" | "too-long" | "overloaded" | "hang";

interface Window {
  /** Tokens every ordinary answer reports as read (input + cache read), or per call number (1-based). */
  read: number | ((call: number) => number);
  compact?: CompactAnswer | ((attempt: number) => CompactAnswer);
}

const SUMMARY = "<analysis>The CEO did step one.</analysis>\n<summary>Step one was done.</summary>";

/** Ordinary calls answer "Step N done." reporting a window of `read` tokens; compaction requests as told. */
function windowPolicy(w: Window): Policy {
  let calls = 0;
  let compacts = 0;
  return (request) => {
    if (isCompactionRequest(request)) {
      compacts++;
      const answer = typeof w.compact === "function" ? w.compact(compacts) : (w.compact ?? "summary");
      if (answer === "too-long")
        return reply.error("invalid_request", {
          message: "prompt is too long: 201234 tokens > 200000 maximum",
        });
      if (answer === "overloaded") return reply.error("overloaded");
      if (answer === "hang") return reply.hang();
      return { content: [{ type: "text", text: SUMMARY }] };
    }
    calls++;
    const read = typeof w.read === "function" ? w.read(calls) : w.read;
    return {
      content: [{ type: "text", text: `Step ${calls} done.` }],
      usage: { input: 10, cacheRead: read - 10, cacheWrite: 0 },
    };
  };
}

async function agent(
  w: Window,
  options: Partial<ClaudeCodeAgentOptions> = {},
  env: Record<string, string> = {},
) {
  server = await startStandin({ policy: windowPolicy(w) });
  return new ClaudeCodeAgent(
    {
      sessionId: "run_ctx",
      systemPrompt: "You are the CEO of Acme.",
      model: resolveModel("claude-sonnet-4-5-20250929"),
      tools: [],
    },
    {
      executablePath: REAL_CLAUDE_CODE!,
      env: {
        ...claudeCodeTestEnv(dir, server.anthropicBaseUrl),
        DISABLE_AUTO_COMPACT: "1", // inherited from an operator's shell: must not reach Claude Code (MC-8)
        ...env,
      },
      cwd: dir,
      ...options,
    },
  );
}

/** The user's own text of a request: the last text block of its last message, Claude Code's reminders removed. */
function promptOf(request: Parameters<typeof lastUserText>[0]): string {
  const texts = (request.messages.at(-1)?.content ?? []).flatMap((b) => (b.type === "text" ? [b.text] : []));
  return (texts.at(-1) ?? "").replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}

/** What each model call was: a compaction request, or the prompt it answered. */
function calls(): string[] {
  return server!.modelCalls().map((c) => (isCompactionRequest(c.request) ? "/compact" : promptOf(c.request)));
}

/** The session each model call belonged to (Claude Code's session header). */
function sessions(): string[] {
  return server!.modelCalls().map((c) => c.request.headers["x-claude-code-session-id"] ?? "");
}

// 181,000 of 200,000 tokens after the first turn: 90.5% of the window.
const AT_THRESHOLD = 181_000;

describe.skipIf(!REAL_CLAUDE_CODE)("Claude Code context policy on the real binary (MC-8, MC-9)", () => {
  it.each([
    {
      rule: "MC-8 claude-code: injects /compact at the 90% default threshold before the next send",
      threshold: undefined,
      read: AT_THRESHOLD,
      injected: true,
    },
    {
      rule: "MC-8 claude-code: an explicit 95% override wins — no /compact at 90.5%",
      threshold: 0.95,
      read: AT_THRESHOLD,
      injected: false,
    },
    {
      rule: "MC-8 claude-code: below the threshold nothing is injected",
      threshold: undefined,
      read: 20_000,
      injected: false,
    },
  ])("$rule", async ({ threshold, read, injected }) => {
    const a = await agent(
      { read: (n) => (n === 1 ? read : 4_000) },
      threshold === undefined ? {} : { compactThreshold: threshold },
    );
    const first = await collect(a.send("A"));
    const second = await collect(a.send("B"));
    expect([...ofType(first, "terminal"), ...ofType(second, "terminal")].map((e) => e.status)).toEqual([
      "done",
      "done",
    ]);
    expect(calls()).toEqual(injected ? ["A", "/compact", "B"] : ["A", "B"]);
    // Every query resumes the same Claude Code session: compaction keeps the window.
    expect(new Set(sessions()).size).toBe(1);
    expect(snapshotOf(first)).toMatchObject({
      harness: "claude-code",
      contextWindow: 200000,
      tokensInWindow: read,
      threshold: threshold ?? 0.9,
      thresholdSource: threshold === undefined ? "default" : "override",
      needsRollover: false,
    });
    expect(ofType(second, "rollover")).toEqual([]);
  });

  it("MC-8 claude-code: the injected compact is consumed into one compaction (start, end with Claude Code's token counts), before the prompt's answer", async () => {
    const a = await agent({ read: (n) => (n === 1 ? AT_THRESHOLD : 4_000) });
    await collect(a.send("A"));
    const events = await collect(a.send("B"));
    const [start, end] = compactions(events);
    expect(compactions(events)).toHaveLength(2);
    expect(start).toEqual({ type: "compaction_start", reason: "threshold" });
    expect(end).toEqual({
      type: "compaction_end",
      ok: true,
      tokensBefore: expect.any(Number),
      tokensAfter: expect.any(Number),
    });
    expect(events.findIndex((e) => e.type === "compaction_end")).toBeLessThan(
      events.findIndex((e) => e.type === "turn_start"),
    );
    expect(snapshotOf(events)).toMatchObject({
      compactions: { count: 1, succeeded: 1 },
      lastCompaction: { result: "ok" },
    });
    expect(contextReportOf(events).compactions).toEqual([
      {
        reason: "threshold",
        ok: true,
        tokensBefore: end!.type === "compaction_end" ? end.tokensBefore : 0,
        tokensAfter: end!.type === "compaction_end" ? end.tokensAfter : 0,
      },
    ]);
  });

  it("MC-8 claude-code: native auto-compaction is never disabled — an inherited DISABLE_AUTO_COMPACT never reaches the Claude Code process", async () => {
    // A wrapper records the environment the real binary is started with, then becomes it (exec).
    const wrapper = join(dir, "claude-env-recorder.sh");
    await writeFile(wrapper, `#!/bin/sh\nenv > "${join(dir, "env.txt")}"\nexec "${REAL_CLAUDE_CODE}" "$@"\n`);
    await chmod(wrapper, 0o755);
    const a = await agent({ read: 4_000 }, { executablePath: wrapper });
    const events = await collect(a.send("A"));
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const env = await readFile(join(dir, "env.txt"), "utf8");
    expect(env).not.toMatch(/^DISABLE_AUTO_COMPACT=/m);
    expect(env).not.toMatch(/^DISABLE_COMPACT=/m);
    expect(env).toMatch(/^CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1$/m);
  });

  it("MC-9 claude-code: a transient overload of the injected compact never latches; the compact is retried next turn", async () => {
    // One try per request (Claude Code would otherwise retry a 529 ten times with backoff).
    const a = await agent(
      { read: AT_THRESHOLD, compact: (n) => (n === 1 ? "overloaded" : "summary") },
      {},
      { CLAUDE_CODE_MAX_RETRIES: "0" },
    );
    await collect(a.send("A"));
    const second = await collect(a.send("B"));
    expect(compactions(second)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: false, error: expect.stringMatching(/529 Overloaded/) },
    ]);
    expect(snapshotOf(second)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "transient" },
    });
    const third = await collect(a.send("C"));
    expect(compactions(third)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true, tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) },
    ]);
    expect([...second, ...third].filter((e) => e.type === "rollover")).toEqual([]);
    expect(calls()).toEqual(["A", "/compact", "B", "/compact", "C"]);
    expect(snapshotOf(third)).toMatchObject({
      needsRollover: false,
      compactions: { count: 2, succeeded: 1 },
    });
  });

  it.each([
    {
      rule: "MC-9 claude-code: a compact Claude Code cannot bring under the limit (400 prompt too long) latches; the same send starts fresh from the handoff",
      window: { read: AT_THRESHOLD, compact: "too-long" as const },
      reason: /could not be reduced/,
      expected: ["A", "/compact", "/compact", "/compact", "handoff"],
    },
    {
      rule: "MC-9 claude-code: occupancy ≥ 100% latches (no /compact into a full window); the next send starts fresh from the handoff",
      window: { read: (n: number) => (n === 1 ? 205_000 : 4_000) },
      reason: /occupancy ≥ 100%/,
      expected: ["A", "handoff"],
    },
  ])("$rule", async ({ window, reason, expected }) => {
    const a = await agent(window);
    const first = await collect(a.send("A"));
    const oldSession = a.vendorSessionId;
    const second = await collect(a.send("B"));
    const [rollover] = ofType(second, "rollover");
    expect(rollover).toMatchObject({
      reason: expect.stringMatching(reason),
      handoffBytes: expect.any(Number),
      tokensBefore: expect.any(Number),
    });
    expect(ofType(second, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const prompts = calls().map((p) => (p.startsWith("# Handoff") ? "handoff" : p));
    expect(prompts).toEqual(expected);
    // The old session is closed for good: the fresh window is a new session, never a resume.
    expect(sessions().at(-1)).not.toBe(oldSession);
    expect(a.vendorSessionId).toBe(sessions().at(-1));
    expect(promptOf(server!.modelCalls().at(-1)!.request)).toMatch(
      /## Task\nA[\s\S]*assistant: Step 1 done[\s\S]*\n---\n\nB$/,
    );
    expect(snapshotOf(first).needsRollover).toBe(expected.length === 2);
    expect(snapshotOf(second)).toMatchObject({ needsRollover: false, rollovers: 1 });
  });

  it("MC-9 claude-code: a failed manual /compact never latches (not even a deterministic one)", async () => {
    const a = await agent({ read: 20_000, compact: "too-long" });
    await collect(a.send("A"));
    const manual = await collect(a.send("/compact"));
    expect(compactions(manual)).toEqual([
      { type: "compaction_start", reason: "manual" },
      { type: "compaction_end", ok: false, error: expect.stringMatching(/could not be reduced/) },
    ]);
    expect(snapshotOf(manual)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "deterministic", reason: expect.stringContaining("manual: never latches") },
    });
    const next = await collect(a.send("B"));
    expect(ofType(next, "rollover")).toEqual([]);
    expect(new Set(sessions()).size).toBe(1);
  });

  it("MC-9 claude-code: stop interrupting the injected compact only clears its fired flag; nothing re-injects on the next send", async () => {
    const a = await agent({ read: (n) => (n === 1 ? AT_THRESHOLD : 4_000), compact: "hang" });
    await collect(a.send("A"));
    const stopped: AgentEvent[] = [];
    for await (const e of a.send("B")) {
      stopped.push(e);
      if (e.type === "compaction_start") {
        // Stop once the injected compact is in flight at the model (the stand-in holds it): the host
        // announces the compaction before Claude Code has sent it, and on a loaded machine a stop that
        // early lands before the request does — a different case from the one this test pins.
        for (let i = 0; i < 600 && !calls().includes("/compact"); i++)
          await new Promise((r) => setTimeout(r, 50));
        a.cancel();
      }
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
    expect(calls()).toEqual(["A", "/compact", "C"]);
  });
});
