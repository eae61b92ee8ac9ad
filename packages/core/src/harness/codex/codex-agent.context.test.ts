// The context policy in the Codex harness (MC-8, MC-9, MC-11) on the REAL Codex binary against a
// loopback stand-in model server: the stand-in reports the usage of a nearly full window (Codex then
// compacts natively before its next request), answers a normal turn with a 400 carrying
// invalid_encrypted_content, or cuts every stream (Codex retries, then fails the turn). One case the
// real binary cannot be made to produce stays on the OFFLINE stand-in executable
// (__fixtures__/offline-codex.mjs): a remote compaction that fails hard with invalid_encrypted_content
// (remote compaction is OpenAI's own endpoint; a custom provider compacts locally). Nothing leaves loopback.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
import { collect, compactions, ofType, snapshotOf } from "../../testing/events.js";
import { codexTestEnv, REAL_CODEX } from "../../testing/real-harnesses.js";
import { CodexAgent } from "./codex-agent.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const STAND_IN = join(FIXTURES, "offline-codex.mjs");

let dir: string;
let server: StandinServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-context-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function real(policy: Policy): Promise<CodexAgent> {
  return startStandin({ policy }).then((s) => {
    server = s;
    return new CodexAgent(
      {
        sessionId: "run_ctx",
        systemPrompt: "You are the CEO of Acme.",
        model: resolveModel("gpt-5-2025-08-07"),
        tools: [],
      },
      {
        executablePath: REAL_CODEX!,
        env: codexTestEnv(dir),
        cwd: dir,
        provider: { baseUrl: s.openaiBaseUrl },
      },
    );
  });
}

/** Ordinary calls answer "Step N done."; `special` overrides what call N answers. */
function steps(special: (call: number) => ReturnType<Policy> | undefined): Policy {
  let calls = 0;
  return (request) => {
    if (isCompactionRequest(request)) return reply.text("Summary: step one was done.");
    calls++;
    return special(calls) ?? reply.text(`Step ${calls} done.`);
  };
}

describe.skipIf(!REAL_CODEX)("Codex context policy on the real binary (MC-8, MC-9, MC-11)", () => {
  it("MC-8 codex: Codex compacts natively (370,000 of 400,000 tokens); the host consumes it as a compaction, occupancy from the turn's usage", async () => {
    const a = await real(
      steps((n) =>
        n === 1
          ? { content: [{ type: "text", text: "Step 1 done." }], usage: { input: 370_000, cacheRead: 0 } }
          : undefined,
      ),
    );
    const first = await collect(a.send("A"));
    expect(snapshotOf(first)).toMatchObject({
      harness: "codex",
      contextWindow: 400000,
      tokensInWindow: 370000,
      occupancy: 0.925,
      threshold: 0.9,
      needsRollover: false,
    });
    const second = await collect(a.send("B"));
    expect(
      server!
        .modelCalls()
        .map((c) =>
          isCompactionRequest(c.request) ? "compaction" : lastUserText(c.request).split("\n").at(-1),
        ),
    ).toEqual(["A", "compaction", "B"]);
    expect(compactions(second)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true },
    ]);
    // The post-compaction warning is not an error.
    expect(ofType(second, "error")).toEqual([]);
    expect(snapshotOf(second)).toMatchObject({
      compactions: { count: 1, succeeded: 1 },
      needsRollover: false,
    });
    expect(ofType(second, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
  });

  it.each([
    {
      rule: "MC-9 codex: lone invalid_encrypted_content (stripped reasoning) on a normal turn is not a rollover",
      failing: () =>
        reply.error("invalid_request", {
          message: "The encrypted content could not be verified (invalid_encrypted_content)",
        }),
      error: /invalid_encrypted_content/,
    },
    {
      rule: "MC-11 codex: a network failure (every stream cut; Codex retries five times itself) never triggers rollover or replay",
      failing: () => reply.cut({ content: [{ type: "text", text: "partial answer" }] }, 3, "reset"),
      error: /stream disconnected before completion/,
    },
  ])("$rule", async ({ failing, error }) => {
    let failingFrom: number | undefined;
    const a = await real(
      steps((n) =>
        failingFrom !== undefined && n >= failingFrom && n < failingFrom + 6 ? failing() : undefined,
      ),
    );
    await collect(a.send("A"));
    failingFrom = 2;
    const failed = await collect(a.send("B"));
    failingFrom = undefined;
    expect(ofType(failed, "error").at(-1)!.message).toMatch(error);
    expect(ofType(failed, "terminal").map((e) => e.status)).toEqual(["failed"]);
    expect(compactions(failed)).toEqual([]);
    expect(ofType(failed, "recovery")).toEqual([]);
    expect(snapshotOf(failed)).toMatchObject({ needsRollover: false, replays: 0, rollovers: 0 });
    const next = await collect(a.send("C"));
    expect(ofType(next, "rollover")).toEqual([]);
    expect(ofType(next, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    // Nothing replayed by the host: the same thread is resumed, and "B" was asked once by Cadre.
    expect(new Set(server!.modelCalls().map((c) => c.request.headers["thread-id"])).size).toBe(1);
  });
});

describe("Codex context policy: a remote-compact hard failure (offline stand-in executable)", () => {
  async function runs(
    logFile: string,
  ): Promise<Array<{ prompt: string; resume: string | null; threadId: string }>> {
    return (await readFile(logFile, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, any>)
      .filter((l) => l.kind === "run")
      .map((l) => ({ prompt: l.prompt, resume: l.resume, threadId: l.threadId }));
  }

  it("MC-9 codex: a remote-compact hard failure with invalid_encrypted_content latches; the next send starts a new thread from the handoff", async () => {
    const logFile = join(dir, "stand-in.log.jsonl");
    const a = new CodexAgent(
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
          CADRE_OFFLINE_CODEX_SCENARIO: join(FIXTURES, "context-remote-compact-fail.jsonl"),
          CADRE_OFFLINE_CODEX_LOG: logFile,
          CADRE_OFFLINE_CODEX_SEQUENTIAL: "1",
        },
        cwd: dir,
      },
    );
    const first = await collect(a.send("Build the team"));
    expect(compactions(first)).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true },
    ]);
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
    const log = await runs(logFile);
    // Never resumed again: the new thread got the handoff, then this send's prompt.
    expect(log[2]!.resume).toBeNull();
    expect(log[2]!.threadId).not.toBe(oldThread);
    expect(log[2]!.prompt).toMatch(
      // The handoff's task is the latest request the old thread had (B), not its first.
      /^# Handoff[\s\S]*## Task\nB[\s\S]*assistant: Step one done\.[\s\S]*\n---\n\nC$/,
    );
    expect(snapshotOf(fresh)).toMatchObject({ needsRollover: false, rollovers: 1 });
    // The next turn resumes the new thread; its first total is its own, not an increment of the old one's.
    const next = await collect(a.send("D"));
    expect((await runs(logFile))[3]).toMatchObject({ resume: log[2]!.threadId, prompt: "D" });
    expect(ofType(next, "usage").map((e) => e.usage)).toEqual([
      { input: 2200, output: 250, cacheRead: 5800, cacheWrite: 0 },
    ]);
  });
});
