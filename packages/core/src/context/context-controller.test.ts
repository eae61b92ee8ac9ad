import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../types.js";
import type { CompactionPath } from "./classify-compaction-failure.js";
import {
  ContextController,
  REMOTE_NO_LOCAL_ROLLOVER,
  type ContextControllerOptions,
} from "./context-controller.js";
import { DEFAULT_COMPACT_THRESHOLD, reserveTokensFor } from "./context-threshold.js";
import { HARNESS_KINDS, type HarnessKind } from "./harness-kind.js";

const WINDOW = 200_000;

function controller(options: Partial<ContextControllerOptions> = {}): ContextController {
  const c = new ContextController({ harness: "claude-code", contextWindow: WINDOW, ...options });
  c.start();
  return c;
}

const start = (reason: "threshold" | "overflow" | "manual" = "threshold"): AgentEvent => ({
  type: "compaction_start",
  reason,
});
const fail = (error: string, summary?: string): AgentEvent => ({
  type: "compaction_end",
  ok: false,
  error,
  summary,
});
const ok = (tokensBefore: number, tokensAfter: number): AgentEvent => ({
  type: "compaction_end",
  ok: true,
  summary: "summary",
  tokensBefore,
  tokensAfter,
});

/** Runs one compaction on `path` that ends with `end`. */
function compact(
  c: ContextController,
  path: CompactionPath,
  end: AgentEvent,
  details: { status?: number; code?: string } = {},
): void {
  c.consume(start(path === "manual" ? "manual" : "threshold"), { path });
  c.consume(end, details);
}

describe("MC-8 compaction ownership", () => {
  it.each(HARNESS_KINDS)("MC-8 daily default threshold is 90%% for %s", (harness) => {
    expect(controller({ harness }).threshold).toBe(DEFAULT_COMPACT_THRESHOLD);
    expect(DEFAULT_COMPACT_THRESHOLD).toBe(0.9);
  });

  it("MC-8 an explicit user override wins over the default", () => {
    expect(controller({ thresholdOverride: 0.75 }).threshold).toBe(0.75);
    const c = controller();
    c.setThresholdOverride(0.6);
    expect(c.threshold).toBe(0.6);
    c.setThresholdOverride(undefined);
    expect(c.threshold).toBe(0.9);
  });

  it.each([
    [200_000, 0.9, 20_000],
    [200_000, 0.75, 50_000],
    [128_000, 0.9, 12_800],
    [100, 0.29, 71],
    [1_000_001, 0.9, 100_001],
  ])(
    "MC-8 Pi reserve for window %i at threshold %f is %i (window − floor(threshold × window))",
    (window, threshold, reserve) => {
      expect(reserveTokensFor(window, threshold)).toBe(reserve);
      expect(
        controller({ harness: "pi", contextWindow: window, thresholdOverride: threshold }).piReserveTokens(),
      ).toBe(reserve);
    },
  );

  it("MC-8 Pi reserve is frozen at start and only a later start/resume picks up a threshold edit", () => {
    const c = controller({ harness: "pi" });
    expect(c.piReserveTokens()).toBe(20_000);
    c.setThresholdOverride(0.5);
    expect(c.piReserveTokens()).toBe(20_000);
    c.resume();
    expect(c.piReserveTokens()).toBe(100_000);
    c.setThresholdOverride(0.8);
    expect(c.piReserveTokens()).toBe(100_000);
    c.start();
    expect(c.piReserveTokens()).toBe(40_000);
  });

  it("MC-8 the Pi reserve does not exist before the first start/resume", () => {
    expect(() => new ContextController({ harness: "pi", contextWindow: WINDOW }).piReserveTokens()).toThrow(
      /start\(\) or resume\(\)/,
    );
  });

  it.each([0, -0.1, 1.01, Number.NaN])("MC-8 threshold %f is rejected", (bad) => {
    expect(() => controller({ thresholdOverride: bad })).toThrow(RangeError);
  });

  it("MC-8 native auto-compaction is never disabled (no setter)", () => {
    const c = controller();
    expect(c.nativeAutoCompact).toBe(true);
    expect(() => {
      (c as unknown as { nativeAutoCompact: boolean }).nativeAutoCompact = false;
    }).toThrow(TypeError);
    expect(c.nativeAutoCompact).toBe(true);
  });

  it.each([
    ["MC-8 Claude Code injects /compact at the threshold", "claude-code", undefined, 180_000, true],
    ["MC-8 Claude Code injects between threshold and full", "claude-code", undefined, 199_999, true],
    ["MC-8 Claude Code does not inject below the threshold", "claude-code", undefined, 179_999, false],
    ["MC-8 Claude Code does not inject when the window is full", "claude-code", undefined, 200_000, false],
    ["MC-8 Claude Code honours an override threshold", "claude-code", 0.5, 100_000, true],
    ["MC-8 the host never sends Pi a compact command", "pi", undefined, 190_000, false],
    ["MC-8 Codex has no host compact path", "codex", undefined, 190_000, false],
  ] as const)("%s", (_name, harness, thresholdOverride, tokens, expected) => {
    const c = controller({ harness, thresholdOverride });
    c.observeTokens(tokens);
    expect(c.shouldInjectCompact()).toBe(expected);
  });

  it("MC-8 the injection fires once until its compaction ends", () => {
    const c = controller();
    c.observeTokens(185_000);
    expect(c.shouldInjectCompact()).toBe(true);
    expect(c.shouldInjectCompact()).toBe(false);
    c.consume(start());
    c.consume(ok(185_000, 40_000));
    c.observeTokens(182_000);
    expect(c.shouldInjectCompact()).toBe(true);
  });

  it("MC-8 Pi compaction events feed the digest (count, last result, tokens before/after)", () => {
    const c = controller({ harness: "pi" });
    c.observeTokens(181_000);
    c.consume(start("threshold"));
    c.consume(ok(181_000, 30_000));
    expect(c.digest()).toMatchObject({
      count: 1,
      succeeded: 1,
      lastResult: "ok",
      tokensBefore: 181_000,
      tokensAfter: 30_000,
    });
    expect(c.occupancy()).toBe(0.15);
    c.consume(start("overflow"));
    c.consume(fail("overloaded_error: Overloaded"));
    expect(c.digest()).toMatchObject({
      count: 2,
      succeeded: 1,
      lastResult: "transient",
      tokensBefore: 30_000,
    });
  });
});

type LatchRow = [
  name: string,
  harness: HarnessKind,
  path: CompactionPath,
  end: AgentEvent,
  details: { status?: number; code?: string },
  latched: boolean,
];

const latchRows: LatchRow[] = [
  [
    "MC-9 empty summary on a silent compact latches",
    "claude-code",
    "silent",
    { type: "compaction_end", ok: true, summary: "" },
    {},
    true,
  ],
  [
    "MC-9 invalid-request 400 on the silent compact latches",
    "claude-code",
    "silent",
    fail("bad request"),
    { status: 400 },
    true,
  ],
  [
    "MC-9 deterministic failure on the rewind compact latches",
    "claude-code",
    "rewind",
    fail("x"),
    { status: 400 },
    true,
  ],
  [
    "MC-9 deterministic failure on the cancel compact latches",
    "claude-code",
    "cancel",
    fail("", ""),
    {},
    true,
  ],
  [
    "MC-9 Pi native compact deterministic failure latches",
    "pi",
    "silent",
    fail("invalid_request_error"),
    {},
    true,
  ],
  [
    "MC-9 Codex remote-compact invalid_encrypted_content latches",
    "codex",
    "silent",
    fail("Error running remote compact task: invalid_encrypted_content"),
    {},
    true,
  ],
  [
    "MC-9 transient compaction failure does not latch",
    "claude-code",
    "silent",
    fail("Overloaded"),
    { status: 529 },
    false,
  ],
  ["MC-9 transient Pi failure does not latch", "pi", "silent", fail("socket hang up"), {}, false],
  [
    "MC-9 failed manual compact never latches (deterministic)",
    "claude-code",
    "manual",
    fail("bad"),
    { status: 400 },
    false,
  ],
  [
    "MC-9 failed manual compact never latches (empty summary)",
    "pi",
    "manual",
    { type: "compaction_end", ok: true, summary: " " },
    {},
    false,
  ],
  [
    "MC-9 lone invalid_encrypted_content is not a rollover",
    "codex",
    "silent",
    fail("invalid_encrypted_content"),
    { status: 400 },
    false,
  ],
];

describe("MC-9 rollover latch", () => {
  it.each(latchRows)("%s", (_name, harness, path, end, details, latched) => {
    const c = controller({ harness });
    c.observeTokens(185_000);
    compact(c, path, end, details);
    expect(c.needsRollover).toBe(latched);
    expect(c.prepareSend({ idle: false }).action === "rollover-then-send").toBe(latched);
  });

  it.each(HARNESS_KINDS)("MC-9 occupancy ≥ 100%% latches rollover on %s", (harness) => {
    const c = controller({ harness });
    c.observeTokens(199_999);
    expect(c.needsRollover).toBe(false);
    c.observeTokens(200_000);
    expect(c.needsRollover).toBe(true);
    expect(c.prepareSend({ idle: false })).toMatchObject({ action: "rollover-then-send" });
  });

  it("MC-9 the latch holds until the rollover completes, then the fresh window is started", () => {
    const c = controller({ harness: "pi" });
    c.observeTokens(210_000);
    c.observeTokens(120_000);
    expect(c.needsRollover).toBe(true);
    c.setThresholdOverride(0.5);
    c.rolloverCompleted(8_000);
    expect(c.needsRollover).toBe(false);
    expect(c.piReserveTokens()).toBe(100_000);
    expect(c.prepareSend({ idle: false }).action).toBe("none");
  });

  it.each(latchRows.filter((row) => row[5]))(
    "MC-9 remote sessions never latch to a local handoff: %s",
    (_name, harness, path, end, details) => {
      const c = controller({ harness, remote: true });
      c.observeTokens(185_000);
      compact(c, path, end, details);
      expect(c.needsRollover).toBe(false);
      const prep = c.prepareSend({ idle: false });
      expect(prep.action).toBe("none");
      expect(prep.reason).toContain(REMOTE_NO_LOCAL_ROLLOVER);
      expect(() => c.rolloverCompleted(0)).toThrow(REMOTE_NO_LOCAL_ROLLOVER);
    },
  );

  it("MC-9 remote occupancy ≥ 100% reports no local rollover", () => {
    const c = controller({ harness: "pi", remote: true });
    c.observeTokens(250_000);
    expect(c.needsRollover).toBe(false);
    expect(c.prepareSend({ idle: true }).reason).toContain(REMOTE_NO_LOCAL_ROLLOVER);
  });

  it("MC-9 a remote session's report follows the live window (it holds no latch)", () => {
    const c = controller({ harness: "pi", remote: true });
    c.observeTokens(210_000);
    expect(c.prepareSend({ idle: false }).reason).toContain(REMOTE_NO_LOCAL_ROLLOVER);
    c.observeTokens(60_000); // Pi compacted natively
    expect(c.prepareSend({ idle: false }).reason).not.toContain(REMOTE_NO_LOCAL_ROLLOVER);
  });

  it("MC-9 the latch lives in memory only: a restart does not re-create it from estimates", () => {
    const live = controller({ harness: "claude-code" });
    live.observeTokens(230_000);
    expect(live.needsRollover).toBe(true);
    const persisted = live.toPersisted();
    expect(Object.keys(persisted)).not.toContain("needsRollover");
    const restarted = ContextController.fromPersisted(persisted);
    restarted.resume();
    expect(restarted.needsRollover).toBe(false);
    expect(restarted.prepareSend({ idle: true }).action).toBe("none");
    expect(restarted.shouldInjectCompact()).toBe(false); // an estimate drives no decision
    restarted.observeTokens(200_500); // a live count may latch again
    expect(restarted.needsRollover).toBe(true);
  });

  it("MC-9 transient failure on Claude Code arms one compact retry for the next turn", () => {
    const c = controller();
    c.observeTokens(185_000);
    expect(c.shouldInjectCompact()).toBe(true);
    compact(c, "silent", fail("Overloaded"), { status: 529 });
    expect(c.shouldInjectCompact()).toBe(false); // nothing re-injects at the end of the failed compact
    expect(c.prepareSend({ idle: false })).toMatchObject({ action: "retry-compact" });
    expect(c.prepareSend({ idle: false }).action).toBe("none");
  });

  it.each(["pi", "codex"] as const)(
    "MC-9 transient failure on %s arms no host compact (native retry only)",
    (harness) => {
      const c = controller({ harness });
      c.observeTokens(185_000);
      compact(c, "silent", fail("Overloaded"), { status: 529 });
      expect(c.prepareSend({ idle: false }).action).toBe("none");
    },
  );

  it("MC-9 a failed manual compact arms no retry either", () => {
    const c = controller();
    c.observeTokens(185_000);
    compact(c, "manual", fail("Overloaded"), { status: 529 });
    expect(c.prepareSend({ idle: false }).action).toBe("none");
  });

  it("MC-9 stop or an idle watchdog interrupting a silent compact only clears fired", () => {
    const c = controller();
    c.observeTokens(185_000);
    expect(c.shouldInjectCompact()).toBe(true);
    c.consume(start());
    c.interruptSilentCompaction();
    expect(c.shouldInjectCompact()).toBe(false); // nothing re-injects immediately
    c.consume(fail("aborted"), { code: "AbortError" });
    expect(c.digest().lastResult).toBe("interrupted");
    expect(c.needsRollover).toBe(false);
    expect(c.shouldInjectCompact()).toBe(false);
    expect(c.prepareSend({ idle: false }).action).toBe("none"); // no retry armed
    expect(c.shouldInjectCompact()).toBe(true); // the next turn may inject again
  });

  it("MC-9 an interrupt with no silent compact in flight changes nothing", () => {
    const c = controller();
    c.observeTokens(185_000);
    c.interruptSilentCompaction();
    expect(c.shouldInjectCompact()).toBe(true);
  });

  it("MC-9 an idle direct send goes through the same preparation as a normal send", () => {
    const scenarios: Array<(c: ContextController) => void> = [
      () => undefined,
      (c) => c.observeTokens(200_000),
      (c) => compact(c, "silent", fail("x"), { status: 400 }),
      (c) => compact(c, "silent", fail("Overloaded"), { status: 529 }),
      (c) => compact(c, "manual", fail("x"), { status: 400 }),
    ];
    for (const harness of HARNESS_KINDS) {
      for (const remote of [false, true]) {
        for (const setUp of scenarios) {
          const [a, b] = [controller({ harness, remote }), controller({ harness, remote })];
          for (const c of [a, b]) {
            c.observeTokens(185_000);
            setUp(c);
          }
          expect(a.prepareSend({ idle: true }).action).toBe(b.prepareSend({ idle: false }).action);
        }
      }
    }
  });
});

describe("host rollover requests (MC-11 Pi prompt timeout, MC-12 broken token budget)", () => {
  it("MC-11/MC-12 a host request latches: the next send rolls over with its reason, then the latch clears", () => {
    const c = controller({ harness: "pi" });
    c.start();
    c.requestRollover("Pi prompt timeout");
    expect(c.needsRollover).toBe(true);
    expect(c.prepareSend({ idle: true })).toEqual({
      action: "rollover-then-send",
      reason: "idle direct send: needsRollover latched (Pi prompt timeout)",
    });
    c.rolloverCompleted(1_000);
    expect(c.needsRollover).toBe(false);
  });

  it("MC-9 a remote session never pretends a handoff: a host request sets no latch", () => {
    const c = controller({ harness: "pi", remote: true });
    c.requestRollover("token budget broken");
    expect(c.needsRollover).toBe(false);
    expect(c.prepareSend({ idle: false }).action).toBe("none");
  });
});
