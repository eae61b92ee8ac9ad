import { describe, expect, it } from "vitest";
import type { AgentEvent, ModelInfo, Usage } from "../types.js";
import { contextReportOf } from "./context-report.js";
import { SessionContext, windowTokensOf } from "./session-context.js";

const model = (contextWindow: number, id = "m"): ModelInfo => ({
  id,
  provider: "offline",
  contextWindow,
  maxOutput: 100,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
});
const usage = (input: number, cacheRead = 0, cacheWrite = 0, output = 0): Usage => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

describe("SessionContext: the controller fed by real usage (MC-8, MC-9)", () => {
  it("MC-8 occupancy counts input + cache read + cache write of the last call, never output", () => {
    expect(windowTokensOf(usage(10, 70, 20, 999))).toBe(100);
    const ctx = new SessionContext({ harness: "pi", model: model(1000) });
    ctx.observeUsage(usage(10, 70, 20, 999));
    expect(ctx.snapshot()).toMatchObject({ tokensInWindow: 100, occupancy: 0.1, needsRollover: false });
  });

  it.each([
    [
      "MC-8 default threshold 90%: reserve = 10% of the window, frozen at start",
      undefined,
      100_000,
      10_000,
      "default",
    ],
    ["MC-8 an explicit user override wins", 0.75, 100_000, 25_000, "override"],
  ] as const)("%s", (_name, override, window, reserve, source) => {
    const ctx = new SessionContext({
      harness: "pi",
      model: model(window),
      ...(override !== undefined ? { thresholdOverride: override } : {}),
    });
    expect(ctx.reserveTokens).toBe(reserve);
    expect(ctx.compactAt).toBe(window - reserve);
    expect(ctx.snapshot()).toMatchObject({
      reserveTokens: reserve,
      thresholdSource: source,
      threshold: override ?? 0.9,
    });
  });

  it("MC-9 ≥ 100% latches, with the reason; 99% does not", () => {
    const ctx = new SessionContext({ harness: "pi", model: model(1000) });
    ctx.observeUsage(usage(990));
    expect(ctx.needsRollover).toBe(false);
    ctx.observeUsage(usage(1000));
    expect(ctx.needsRollover).toBe(true);
    expect(ctx.latchReason).toBe("occupancy ≥ 100% (1000 of 1000 tokens)");
    expect(ctx.prepareSend(true).action).toBe("rollover-then-send");
    ctx.rolloverCompleted(50);
    expect(ctx.snapshot()).toMatchObject({ needsRollover: false, rollovers: 1, tokensInWindow: 50 });
    expect(ctx.snapshot().latchReason).toBeUndefined();
  });

  it.each([
    [
      "MC-9 an empty summary latches (deterministic)",
      { type: "compaction_end", ok: false, summary: "", error: "empty" } as AgentEvent,
      {},
      true,
      "deterministic",
    ],
    [
      "MC-9 a 400 on the compact path latches (deterministic)",
      { type: "compaction_end", ok: false, error: "bad" } as AgentEvent,
      { status: 400 },
      true,
      "deterministic",
    ],
    [
      "MC-9 a 529 overload does not latch (transient)",
      { type: "compaction_end", ok: false, error: "Overloaded" } as AgentEvent,
      { status: 529, code: "overloaded_error" },
      false,
      "transient",
    ],
    [
      "MC-9 a successful compaction does not latch and shrinks occupancy",
      { type: "compaction_end", ok: true, summary: "s", tokensAfter: 100 } as AgentEvent,
      {},
      false,
      "ok",
    ],
  ])("%s", (_name, end, details, latched, result) => {
    const ctx = new SessionContext({ harness: "pi", model: model(1000) });
    ctx.observeUsage(usage(950));
    ctx.consume({ type: "compaction_start", reason: "threshold" });
    ctx.consume(end, details);
    expect(ctx.needsRollover).toBe(latched);
    const snap = ctx.snapshot();
    expect(snap.lastCompaction?.result).toBe(result);
    if (latched) expect(snap.latchReason).toBe(snap.lastCompaction?.reason);
    if (result === "ok") expect(snap.tokensInWindow).toBe(100);
  });

  it("MC-9 a failed manual compaction never latches", () => {
    const ctx = new SessionContext({ harness: "pi", model: model(1000) });
    ctx.consume({ type: "compaction_start", reason: "manual" });
    ctx.consume({ type: "compaction_end", ok: false, summary: "", error: "empty" });
    expect(ctx.needsRollover).toBe(false);
  });

  it("MC-13 a model switch re-freezes the reserve for the target window and keeps the session's counts", () => {
    const ctx = new SessionContext({ harness: "pi", model: model(1000) });
    ctx.consume({ type: "compaction_start", reason: "threshold" });
    ctx.consume({ type: "compaction_end", ok: true, summary: "s", tokensAfter: 300 });
    ctx.replayed();
    ctx.switchModel(model(500, "small"));
    const snap = ctx.snapshot();
    expect(snap).toMatchObject({
      model: "small",
      contextWindow: 500,
      reserveTokens: 50,
      tokensInWindow: 300,
      occupancy: 0.6,
      replays: 1,
      compactions: { count: 1, succeeded: 1 },
    });
    expect(snap.lastCompaction?.result).toBe("ok");
  });
});

describe("contextReportOf: what a stored run says (cadre sessions inspect)", () => {
  it("takes the last snapshot and the compaction/recovery/rollover history in order", () => {
    const ctx = new SessionContext({ harness: "pi", model: model(1000) });
    const events: AgentEvent[] = [
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: false, summary: "", error: "empty", tokensBefore: 950 },
      { type: "rollover", reason: "latched", handoffBytes: 800, tokensBefore: 950, tokensAfter: 90 },
      { type: "recovery", action: "replay", reason: "MC-10 …" },
      { type: "recovery", action: "fail-closed", reason: "MC-11 …" },
      {
        type: "compression",
        trigger: "next-send",
        action: "strip-images",
        reason: "MC-12 …",
        bytes: 900,
        byteLimit: 500,
        strippedImages: 1,
        bytesFreed: 600,
      },
      { type: "context", snapshot: { ...ctx.snapshot(), rollovers: 9 } },
      { type: "context", snapshot: ctx.snapshot() },
      { type: "terminal", status: "failed", reason: "x" },
    ];
    const report = contextReportOf(events);
    expect(report.snapshot).toEqual(ctx.snapshot());
    expect(report.compactions).toEqual([
      { reason: "threshold", ok: false, error: "empty", tokensBefore: 950 },
    ]);
    expect(report.rollovers).toEqual([
      { reason: "latched", handoffBytes: 800, tokensBefore: 950, tokensAfter: 90 },
    ]);
    expect(report.replays).toBe(1);
    expect(report.compressions).toEqual([
      {
        trigger: "next-send",
        action: "strip-images",
        reason: "MC-12 …",
        bytes: 900,
        byteLimit: 500,
        strippedImages: 1,
        bytesFreed: 600,
      },
    ]);
    expect(report.recoveries.map((r) => r.action)).toEqual(["replay", "fail-closed"]);
    expect(report.terminal).toEqual({ status: "failed", reason: "x" });
  });

  it("a run without a snapshot (another harness) reports none, and never invents one", () => {
    expect(contextReportOf([{ type: "terminal", status: "done" }])).toEqual({
      compactions: [],
      recoveries: [],
      rollovers: [],
      compressions: [],
      sessions: [],
      replays: 0,
      terminal: { status: "done" },
    });
  });
});
