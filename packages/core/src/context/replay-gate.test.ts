import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../types.js";
import {
  decideReplay,
  evidenceFromEvents,
  isExplicitContextOverflow,
  type ReplayGateInput,
  type TurnErrorDescription,
  type TurnEvidence,
} from "./replay-gate.js";

const OVERFLOW: TurnErrorDescription = { source: "protocol", code: "context_length_exceeded" };
const CLEAN: TurnEvidence = { assistantOutput: false, toolSideEffects: "none" };

type Row = [name: string, input: ReplayGateInput, replay: boolean];

const rows: Row[] = [
  [
    "MC-10 explicit overflow, no output, no side effects: one wire-only replay",
    { error: OVERFLOW, evidence: CLEAN, replaysDone: 0 },
    true,
  ],
  [
    "MC-10 Anthropic 'prompt is too long' is explicit",
    {
      error: {
        source: "protocol",
        status: 400,
        message: "prompt is too long: 210000 tokens > 200000 maximum",
      },
      evidence: CLEAN,
      replaysDone: 0,
    },
    true,
  ],
  ["MC-10 only one replay per message", { error: OVERFLOW, evidence: CLEAN, replaysDone: 1 }, false],
  [
    "MC-10 tool side effects fail closed",
    { error: OVERFLOW, evidence: { assistantOutput: false, toolSideEffects: "some" }, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 uncertain side effects fail closed",
    { error: OVERFLOW, evidence: { assistantOutput: false, toolSideEffects: "unknown" }, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 assistant output fails closed",
    { error: OVERFLOW, evidence: { assistantOutput: true, toolSideEffects: "none" }, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 uncertain assistant output fails closed",
    { error: OVERFLOW, evidence: { assistantOutput: "unknown", toolSideEffects: "none" }, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 a plain 400 is not an explicit overflow",
    { error: { source: "protocol", status: 400, message: "bad request" }, evidence: CLEAN, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 a timeout never replays",
    { error: { source: "protocol", code: "ETIMEDOUT" }, evidence: CLEAN, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 overflow text on stderr is not a classification (MC-11)",
    { error: { source: "stderr", message: "prompt is too long" }, evidence: CLEAN, replaysDone: 0 },
    false,
  ],
  [
    "MC-10 overflow wording inside another message is uncertain",
    {
      error: { source: "protocol", message: "user asked: prompt is too long?" },
      evidence: CLEAN,
      replaysDone: 0,
    },
    false,
  ],
  [
    "MC-10 rollover after a compaction failure never replays a message with side effects",
    {
      error: OVERFLOW,
      evidence: { assistantOutput: false, toolSideEffects: "some" },
      replaysDone: 0,
      afterCompactionRollover: true,
    },
    false,
  ],
  [
    "MC-10 rollover after a compaction failure with unknown side effects fails closed",
    {
      error: OVERFLOW,
      evidence: { assistantOutput: false, toolSideEffects: "unknown" },
      replaysDone: 0,
      afterCompactionRollover: true,
    },
    false,
  ],
  [
    "MC-10 rollover after a compaction failure without an overflow error does not replay",
    {
      error: { source: "protocol", status: 400, message: "compact failed" },
      evidence: CLEAN,
      replaysDone: 0,
      afterCompactionRollover: true,
    },
    false,
  ],
  [
    "MC-10 rollover after a compaction failure with explicit overflow and a clean turn may replay once",
    { error: OVERFLOW, evidence: CLEAN, replaysDone: 0, afterCompactionRollover: true },
    true,
  ],
];

describe("MC-10 replay gate", () => {
  it.each(rows)("%s", (_name, input, replay) => {
    const decision = decideReplay(input);
    expect(decision.replay).toBe(replay ? "wire-only" : "none");
    if (decision.replay === "none") expect(decision.failClosed).toBe(true);
  });

  it.each(["context_length_exceeded", "context_window_exceeded", "ContextWindowExceeded", "prompt_too_long"])(
    "MC-10 code %s is an explicit overflow",
    (code) => {
      expect(isExplicitContextOverflow({ source: "protocol", code })).toBe(true);
    },
  );

  const ev = (events: AgentEvent[]) => evidenceFromEvents(events);
  it.each([
    ["MC-10 an empty turn is clean", [], CLEAN],
    [
      "MC-10 turn_start and usage are not output",
      [
        { type: "turn_start", turn: 1 },
        { type: "usage", usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 } },
      ],
      CLEAN,
    ],
    [
      "MC-10 text counts as assistant output",
      [{ type: "text_start", index: 0 }],
      { assistantOutput: true, toolSideEffects: "none" },
    ],
    [
      "MC-10 thinking counts as assistant output",
      [{ type: "thinking_delta", index: 0, delta: "hm" }],
      { assistantOutput: true, toolSideEffects: "none" },
    ],
    [
      "MC-10 a tool call streamed counts as output",
      [{ type: "toolcall_start", index: 0, id: "t", name: "x" }],
      { assistantOutput: true, toolSideEffects: "none" },
    ],
    [
      "MC-10 a tool execution is a side effect",
      [{ type: "tool_use", id: "t", name: "x", input: {} }],
      { assistantOutput: true, toolSideEffects: "some" },
    ],
    [
      "MC-10 an unmodelled vendor event makes side effects uncertain",
      [{ type: "unknown", vendor: "codex", vendorType: "exec", raw: {} }],
      { assistantOutput: false, toolSideEffects: "unknown" },
    ],
  ] as Array<[string, AgentEvent[], TurnEvidence]>)("%s", (_name, events, expected) => {
    expect(ev(events)).toEqual(expected);
  });
});
