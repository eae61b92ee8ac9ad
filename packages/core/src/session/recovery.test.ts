import { describe, expect, it } from "vitest";
import { evidenceFromEvents, isExplicitContextOverflow, type TurnEvidence } from "../context/index.js";
import type { AgentEvent } from "../types.js";
import { describeProviderError, failureKindOf } from "./provider-error.js";
import { decideRecovery, TurnEvidenceTracker } from "./recovery.js";

// The texts pi-ai surfaces for each vendor failure (stopReason "error", errorMessage).
const ANTHROPIC_OVERFLOW = `400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"},"request_id":"req_1"}`;
const ANTHROPIC_OVERLOADED = `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_2"}`;
const ANTHROPIC_BAD_REQUEST = `400 {"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"},"request_id":"req_3"}`;
const OPENAI_OVERFLOW =
  "400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.";
const RESPONSES_OVERFLOW =
  "Error Code context_length_exceeded: Your input exceeds the context window of this model.";

describe("describeProviderError: the vendor envelope as pi-ai surfaces it", () => {
  it.each([
    [
      "Anthropic STATUS {json}",
      ANTHROPIC_OVERFLOW,
      {
        status: 400,
        code: "invalid_request_error",
        message: "prompt is too long: 213462 tokens > 200000 maximum",
      },
    ],
    ["Anthropic 529", ANTHROPIC_OVERLOADED, { status: 529, code: "overloaded_error", message: "Overloaded" }],
    ["OpenAI STATUS message", OPENAI_OVERFLOW, { status: 400, message: OPENAI_OVERFLOW.slice(4) }],
    [
      "OpenAI Responses Error Code",
      RESPONSES_OVERFLOW,
      { code: "context_length_exceeded", message: "Your input exceeds the context window of this model." },
    ],
    ["a bare message", "Request timed out.", { message: "Request timed out." }],
    ["a status with a body that is not JSON", "400 {not json", { status: 400, message: "{not json" }],
  ])("%s", (_name, raw, expected) => {
    const described = describeProviderError(raw);
    expect(described).toMatchObject({ ...expected, raw, source: "protocol" });
    if (!("code" in expected)) expect(described.code).toBeUndefined();
  });
});

const CLEAN: TurnEvidence = { assistantOutput: false, toolSideEffects: "none" };

type Row = [
  name: string,
  raw: string,
  evidence: TurnEvidence,
  replaysDone: number,
  action: "replay" | "fail-closed",
  kind: string,
];

const rows: Row[] = [
  [
    "MC-10 Anthropic overflow before any output: one wire-only replay",
    ANTHROPIC_OVERFLOW,
    CLEAN,
    0,
    "replay",
    "context-overflow",
  ],
  [
    "MC-10 OpenAI overflow before any output: one wire-only replay",
    OPENAI_OVERFLOW,
    CLEAN,
    0,
    "replay",
    "context-overflow",
  ],
  [
    "MC-10 OpenAI Responses context_length_exceeded: one wire-only replay",
    RESPONSES_OVERFLOW,
    CLEAN,
    0,
    "replay",
    "context-overflow",
  ],
  [
    "MC-10 the second overflow of the same message is not replayed",
    ANTHROPIC_OVERFLOW,
    CLEAN,
    1,
    "fail-closed",
    "context-overflow",
  ],
  [
    "MC-10 overflow after a tool ran fails closed",
    ANTHROPIC_OVERFLOW,
    { assistantOutput: true, toolSideEffects: "some" },
    0,
    "fail-closed",
    "context-overflow",
  ],
  [
    "MC-10 overflow after assistant output fails closed",
    ANTHROPIC_OVERFLOW,
    { assistantOutput: true, toolSideEffects: "none" },
    0,
    "fail-closed",
    "context-overflow",
  ],
  [
    "MC-10 overflow with uncertain side effects fails closed",
    ANTHROPIC_OVERFLOW,
    { assistantOutput: false, toolSideEffects: "unknown" },
    0,
    "fail-closed",
    "context-overflow",
  ],
  [
    "MC-10 a plain invalid request is not an overflow: never replayed",
    ANTHROPIC_BAD_REQUEST,
    CLEAN,
    0,
    "fail-closed",
    "other",
  ],
  [
    "MC-10 an overload is not an overflow: never replayed",
    ANTHROPIC_OVERLOADED,
    CLEAN,
    0,
    "fail-closed",
    "other",
  ],
  [
    "MC-11 an ordinary request timeout: no replay, no rollover",
    "Request timed out.",
    CLEAN,
    0,
    "fail-closed",
    "timeout",
  ],
  [
    "MC-11 a stream cut is a network failure: no replay",
    "Anthropic stream ended before message_stop",
    CLEAN,
    0,
    "fail-closed",
    "network",
  ],
  [
    "MC-11 a connection reset is a network failure: no replay",
    "Connection error.",
    CLEAN,
    0,
    "fail-closed",
    "network",
  ],
];

describe("decideRecovery after a failed model call (MC-10, MC-11)", () => {
  it.each(rows)("%s", (_name, raw, evidence, replaysDone, action, kind) => {
    const decision = decideRecovery({
      harness: "pi",
      error: describeProviderError(raw),
      evidence,
      replaysDone,
    });
    expect(decision.action).toBe(action);
    expect(decision.kind).toBe(kind);
    // A plain-language reason an operator reads: what was decided, no internal rule id.
    expect(decision.reason).toMatch(
      action === "replay" ? /one wire-only replay/ : /not replayed|never replayed|no replay/,
    );
    expect(decision.reason).not.toMatch(/\b(MC|C4|OP)-\d+/);
  });

  it("MC-10 a rollover after a deterministic compaction failure never replays a message with side effects", () => {
    const decision = decideRecovery({
      harness: "pi",
      error: describeProviderError(ANTHROPIC_OVERFLOW),
      evidence: { assistantOutput: false, toolSideEffects: "some" },
      replaysDone: 0,
      afterCompactionRollover: true,
    });
    expect(decision.action).toBe("fail-closed");
  });

  it("MC-11 stderr text never drives recovery: an overflow read from stderr is not replayed", () => {
    const decision = decideRecovery({
      harness: "pi",
      error: { source: "stderr", message: "prompt is too long: 3 tokens > 2 maximum" },
      evidence: CLEAN,
      replaysDone: 0,
    });
    expect(decision.action).toBe("fail-closed");
  });

  it("MC-11 the session's own Pi prompt timeout: never replayed, the next send hands off", () => {
    const decision = decideRecovery({
      harness: "pi",
      error: describeProviderError("Pi prompt timeout: nothing for 600000 ms"),
      evidence: CLEAN,
      replaysDone: 0,
      promptTimeout: true,
    });
    expect(decision).toEqual({
      action: "fail-closed",
      kind: "timeout",
      reason:
        "Pi prompt timeout: the one timeout that may hand off; no replay: the next send starts from a handoff",
      handoff: true,
    });
  });

  it("MC-11 a remote Pi prompt timeout has no local handoff; an ordinary timeout never hands off", () => {
    const remote = decideRecovery({
      harness: "pi",
      error: describeProviderError("x"),
      evidence: CLEAN,
      replaysDone: 0,
      promptTimeout: true,
      remote: true,
    });
    expect(remote.handoff).toBeUndefined();
    expect(remote.action).toBe("fail-closed");
    const ordinary = decideRecovery({
      harness: "pi",
      error: describeProviderError("Request timed out."),
      evidence: CLEAN,
      replaysDone: 0,
    });
    expect(ordinary.handoff).toBeUndefined();
  });

  it("uses the replay gate's own overflow test (one definition)", () => {
    for (const raw of [
      ANTHROPIC_OVERFLOW,
      OPENAI_OVERFLOW,
      RESPONSES_OVERFLOW,
      ANTHROPIC_BAD_REQUEST,
      "Request timed out.",
    ]) {
      const described = describeProviderError(raw);
      expect(failureKindOf(described, isExplicitContextOverflow) === "context-overflow").toBe(
        isExplicitContextOverflow(described),
      );
    }
  });
});

describe("TurnEvidenceTracker", () => {
  const streams: AgentEvent[][] = [
    [],
    [
      { type: "turn_start", turn: 1 },
      { type: "usage", usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 } },
    ],
    [
      { type: "turn_start", turn: 1 },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "hi" },
    ],
    [{ type: "thinking_start", index: 0 }],
    [{ type: "unknown", vendor: "pi", vendorType: "x", raw: null }],
    [
      { type: "tool_use", id: "t", name: "hire_agent", input: {} },
      { type: "text_start", index: 0 },
    ],
    [
      { type: "unknown", vendor: "pi", vendorType: "x", raw: null },
      { type: "tool_result", toolUseId: "t", name: "x", content: [], isError: false },
    ],
  ];
  it.each(streams.map((s, i) => [i, s] as const))(
    "stream %i: the same evidence as the replay gate's rule over the whole turn",
    (_i, events) => {
      const tracker = new TurnEvidenceTracker();
      for (const e of events) tracker.observe(e);
      expect(tracker.evidence()).toEqual(evidenceFromEvents(events));
      tracker.reset();
      expect(tracker.evidence()).toEqual(CLEAN);
    },
  );
});
