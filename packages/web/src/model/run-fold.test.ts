// Folding a run's events into the run view's rows: streamed blocks become one row each, a tool
// call gathers its arguments and result, context-policy decisions read as one line each, and a
// replayed or re-delivered event never doubles a row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentEvent, ContextSnapshot } from "../api/types.js";
import { contextText } from "./policy-text.js";
import { foldRun, RunFold } from "./run-fold.js";

const seqd = (events: AgentEvent[]) => events.map((event, seq) => ({ seq, event }));

/** One model call that says something, calls a tool and gets its result. */
const TURN: AgentEvent[] = [
  { type: "turn_start", turn: 1, model: "offline-scripted-1" },
  { type: "text_start", index: 0 },
  { type: "text_delta", index: 0, delta: "Hiring a " },
  { type: "text_delta", index: 0, delta: "CTO." },
  { type: "text_end", index: 0, text: "Hiring a CTO." },
  { type: "toolcall_start", index: 1, id: "c1", name: "hire_agent" },
  { type: "toolcall_delta", index: 1, delta: '{"name":' },
  { type: "toolcall_delta", index: 1, delta: '"CTO"}' },
  { type: "toolcall_end", index: 1, id: "c1", name: "hire_agent", input: { name: "CTO" } },
  { type: "usage", usage: { input: 40, output: 20, cacheRead: 0, cacheWrite: 900 } },
  { type: "tool_use", id: "c1", name: "hire_agent", input: { name: "CTO" } },
  {
    type: "tool_result",
    toolUseId: "c1",
    name: "hire_agent",
    isError: false,
    content: [{ type: "text", text: '{"agentId":"agt_1"}' }],
  },
  { type: "turn_end", turn: 1, stopReason: "tool_use" },
];

describe("RunFold", () => {
  it("folds streamed text into one row and a tool call into one row with its arguments and result", () => {
    const fold = foldRun(seqd([...TURN, { type: "terminal", status: "done" }]));
    expect(fold.items.map((i) => i.kind)).toEqual(["turn", "text", "tool", "usage", "terminal"]);
    expect(fold.items[0]).toMatchObject({ turn: 1, model: "offline-scripted-1", stopReason: "tool_use" });
    expect(fold.items[1]).toMatchObject({ text: "Hiring a CTO.", streaming: false });
    expect(fold.items[2]).toMatchObject({
      name: "hire_agent",
      state: "done",
      args: '{\n  "name": "CTO"\n}',
      result: '{\n  "agentId": "agt_1"\n}',
    });
    expect(fold.calls).toEqual([{ input: 40, output: 20, cacheRead: 0, cacheWrite: 900 }]);
    expect(fold.state).toBe("done");
    expect(fold.events).toBe(TURN.length + 1);
  });

  it("shows work in progress: text and arguments as they stream, a tool call running until its result", () => {
    const fold = new RunFold();
    TURN.slice(0, 3).forEach((e, seq) => fold.apply(seq, e));
    expect(fold.items[1]).toMatchObject({ kind: "text", text: "Hiring a ", streaming: true });
    TURN.slice(3, 8).forEach((e, i) => fold.apply(3 + i, e));
    expect(fold.items[2]).toMatchObject({ kind: "tool", args: '{"name":"CTO"}', state: "composing" });
    TURN.slice(8, 11).forEach((e, i) => fold.apply(8 + i, e));
    expect(fold.items[2]).toMatchObject({ state: "running" });
    expect(fold.state).toBe("running");
  });

  it("records failures: an error result, an error event, a failed terminal with its reason", () => {
    const fold = foldRun(
      seqd([
        { type: "tool_use", id: "x", name: "file_approval", input: {} },
        {
          type: "tool_result",
          toolUseId: "x",
          name: "file_approval",
          isError: true,
          content: [{ type: "text", text: "payload: required" }],
        },
        { type: "error", message: "provider overloaded", code: "overloaded", retryable: true },
        { type: "compaction_end", ok: false, error: "empty summary" },
        { type: "unknown", vendor: "codex", vendorType: "x.y", raw: {} },
        { type: "terminal", status: "failed", reason: "provider overloaded" },
      ]),
    );
    expect(fold.items).toMatchObject([
      { kind: "tool", name: "file_approval", state: "failed", args: "{}", result: "payload: required" },
      { kind: "error", message: "provider overloaded", code: "overloaded" },
      { kind: "compaction", ok: false, text: "compaction failed: empty summary" },
      { kind: "unknown", vendor: "codex", vendorType: "x.y" },
      { kind: "terminal", status: "failed", reason: "provider overloaded" },
    ]);
    expect(fold.state).toBe("failed");
  });

  it("a call the harness refused (no such tool) is a refused tool row with its error result, whichever order the harness reports it in", () => {
    const refusedResult = {
      type: "tool_result" as const,
      toolUseId: "r",
      name: "hire_agent",
      isError: true,
      content: [{ type: "text" as const, text: "unsupported call: hire_agent" }],
    };
    const codex = foldRun(
      seqd([
        { type: "tool_use", id: "r", name: "hire_agent", input: { name: "CTO" }, refused: true },
        refusedResult,
      ]),
    );
    const claudeCode = foldRun(
      seqd([
        { type: "toolcall_start", index: 0, id: "r", name: "hire_agent" },
        refusedResult,
        { type: "toolcall_end", index: 0, id: "r", name: "hire_agent", input: { name: "CTO" } },
        { type: "tool_use", id: "r", name: "hire_agent", input: { name: "CTO" }, refused: true },
      ]),
    );
    for (const fold of [codex, claudeCode])
      expect(fold.items).toMatchObject([
        { kind: "tool", name: "hire_agent", state: "refused", result: "unsupported call: hire_agent" },
      ]);
  });

  it("a model drift reads as a row: the served id, or the model replaced under the declared id", () => {
    const fold = foldRun(
      seqd([
        { type: "model_drift", declared: "llama3.1:8b", served: "llama3.1:70b", policy: "warn" },
        {
          type: "model_drift",
          declared: "llama3.1:8b",
          served: "llama3.1:8b",
          policy: "refuse",
          fingerprint: { declared: "digest:aaa", served: "digest:bbb" },
        },
      ]),
    );
    expect(fold.items.map((i) => (i.kind === "policy" ? [i.policy, i.text, i.ok] : [i.kind]))).toEqual([
      ["model_drift", "model drift: the endpoint served llama3.1:70b for llama3.1:8b", false],
      [
        "model_drift",
        "model drift: the model under llama3.1:8b was replaced since it was declared (digest:aaa then, digest:bbb now); the company refuses it, the run stops",
        false,
      ],
    ]);
  });

  it("shows the context policy's decisions as rows, with the rule's reason and whether the run could go on", () => {
    const fold = foldRun(
      seqd([
        {
          type: "compression",
          trigger: "next-send",
          action: "strip-images",
          reason: "byte budget broken by strippable oversized images",
          bytes: 33_500_000,
          byteLimit: 32_000_000,
          strippedImages: 2,
          bytesFreed: 2_100_000,
        },
        {
          type: "compression",
          trigger: "terminal-error",
          action: "handoff-rebuild",
          reason: "token budget broken: occupancy ≥ 100%",
        },
        {
          type: "rollover",
          reason: "token budget broken: occupancy ≥ 100%",
          handoffBytes: 4200,
          tokensBefore: 201_000,
          tokensAfter: 3100,
        },
        { type: "error", message: "prompt is too long", code: "context_overflow" },
        {
          type: "recovery",
          action: "replay",
          reason: "clean turn: one wire-only replay of the failed user message",
        },
        {
          type: "recovery",
          action: "fail-closed",
          reason: "not an explicit context-overflow error: reported, never replayed",
        },
        {
          type: "compression",
          trigger: "next-send",
          action: "fail-closed",
          reason: "remote session: no local rescue",
          bytes: 40_000_000,
          byteLimit: 32_000_000,
        },
      ]),
    );
    expect(fold.items.map((i) => (i.kind === "policy" ? [i.policy, i.text, i.ok] : [i.kind]))).toEqual([
      [
        "compression",
        "compression before the next send: stripped 2 inline images (2.1 MB freed) — byte budget broken by strippable oversized images · request 33.5 MB of 32.0 MB",
        true,
      ],
      [
        "compression",
        "compression after a terminal error: handing off to a fresh window — token budget broken: occupancy ≥ 100%",
        true,
      ],
      [
        "rollover",
        "context rolled over to a fresh window: token budget broken: occupancy ≥ 100% · handoff 4.2 KB · 201,000 → 3,100 tokens",
        undefined,
      ],
      ["error"],
      [
        "recovery",
        "recovery: replaying the failed message once — clean turn: one wire-only replay of the failed user message",
        true,
      ],
      [
        "recovery",
        "recovery: not replayed — not an explicit context-overflow error: reported, never replayed",
        false,
      ],
      [
        "compression",
        "compression before the next send: failed closed — remote session: no local rescue · request 40.0 MB of 32.0 MB",
        false,
      ],
    ]);
    expect(fold.state).toBe("running");
  });

  it("says what the harness offered the model, and flags a list that is not the company's decision", () => {
    const fold = foldRun(
      seqd([
        {
          type: "harness_tools",
          harness: "claude-code",
          tools: ["mcp__cadre__hire_agent", "mcp__cadre__file_approval"],
          mcpServers: [{ name: "cadre", status: "connected" }],
          expected: ["mcp__cadre__hire_agent", "mcp__cadre__file_approval"],
          source: "Claude Code's system/init line",
        },
        {
          type: "harness_tools",
          harness: "codex",
          tools: ["list_mcp_resources"],
          mcpServers: [{ name: "cadre", status: "started (required), but it recorded no tools/list answer" }],
          expected: ["list_mcp_resources", "mcp__cadre__hire_agent"],
          source: "cadre mcp's handshake record",
          problem:
            "Codex does not offer the tools the company decided: it does not offer mcp__cadre__hire_agent",
        },
        {
          type: "continuation",
          claimId: "c1",
          action: "opened",
          attempt: 1,
          reason: "`sleep 5` still running",
        },
        {
          type: "continuation",
          claimId: "c1",
          action: "lost-handle",
          attempt: 1,
          reason: "lost-handle: `sleep 5`",
        },
      ]),
    );
    expect(fold.items.map((i) => [i.kind, "text" in i ? i.text : "", "ok" in i ? i.ok : undefined])).toEqual([
      [
        "harness",
        "Claude Code offers mcp__cadre__hire_agent, mcp__cadre__file_approval · MCP cadre: connected — as the company decided",
        true,
      ],
      [
        "harness",
        "Codex offers list_mcp_resources · MCP cadre: started (required), but it recorded no tools/list answer — Codex does not offer the tools the company decided: it does not offer mcp__cadre__hire_agent",
        false,
      ],
      [
        "policy",
        "work still running: continuation turn opened to wait for it (continuation 1) — `sleep 5` still running",
        true,
      ],
      [
        "policy",
        "lost handle: the running work could not be proven to survive (continuation 1) — lost-handle: `sleep 5`",
        false,
      ],
    ]);
  });

  it("keeps the last context snapshot for the summary line instead of adding a row", () => {
    const snapshot: ContextSnapshot = {
      harness: "pi",
      model: "claude-sonnet-4-5",
      contextWindow: 200_000,
      tokensInWindow: 84_000,
      occupancy: 0.42,
      threshold: 0.8,
      thresholdSource: "default",
      remote: false,
      needsRollover: false,
      openClaims: [],
      compactions: { count: 0, succeeded: 0 },
      replays: 0,
      rollovers: 0,
    };
    const latched = {
      ...snapshot,
      occupancy: 1.02,
      tokensInWindow: 204_000,
      threshold: 0.7,
      thresholdSource: "override" as const,
      needsRollover: true,
      latchReason: "occupancy ≥ 100%",
    };
    const fold = foldRun(seqd([...TURN, { type: "context", snapshot }]));
    expect(fold.items.map((i) => i.kind)).toEqual(["turn", "text", "tool", "usage"]);
    expect(contextText(fold.context!)).toBe(
      "42.0% of 200,000 tokens · compacts at 80% · rollover latch clear",
    );
    fold.apply(TURN.length + 1, { type: "context", snapshot: latched });
    expect(contextText(fold.context!)).toBe(
      "102.0% of 200,000 tokens · compacts at 70% (override) · rollover latch set: occupancy ≥ 100%",
    );
    expect(contextText({ ...snapshot, remote: true, latchReason: "occupancy ≥ 100%" })).toBe(
      "42.0% of 200,000 tokens · compacts at 80% · rollover latch clear (remote session, noted: occupancy ≥ 100%)",
    );
  });

  it("ignores an event it already folded and counts a skipped one", () => {
    const fold = new RunFold();
    expect(fold.apply(0, TURN[0]!)).toBe(true);
    expect(fold.apply(0, TURN[0]!)).toBe(false);
    expect(fold.repeats).toBe(1);
    fold.apply(2, TURN[1]!);
    expect(fold.gaps).toBe(1);
    expect(fold.items).toHaveLength(2);
  });

  it("replaces a changed row's object and keeps unchanged ones, so rows can be memoised", () => {
    const fold = new RunFold();
    TURN.slice(0, 3).forEach((e, seq) => fold.apply(seq, e));
    const [turn, text] = fold.items;
    fold.apply(3, TURN[3]!);
    expect(fold.items[0]).toBe(turn);
    expect(fold.items[1]).not.toBe(text);
  });

  it("gives the same rows however the stream is cut and however much is delivered twice", () => {
    const events = seqd([
      ...TURN,
      ...TURN.map((e) => (e.type === "turn_start" || e.type === "turn_end" ? { ...e, turn: 2 } : e)),
      { type: "terminal", status: "done" },
    ]);
    const expected = foldRun(events);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(events.length), fc.nat(6)), { maxLength: 12 }), (deliveries) => {
        // Each delivery resumes up to `back` events before where the previous one ended (a
        // reconnect that re-sends some) and goes on to `to`; a last one delivers the rest.
        const fold = new RunFold();
        let delivered = 0;
        for (const [to, back] of [...deliveries, [events.length, 0] as const]) {
          const end = Math.max(to, delivered);
          for (const e of events.slice(Math.max(0, delivered - back), end)) fold.apply(e.seq, e.event);
          delivered = end;
        }
        expect(fold.items).toEqual(expected.items);
        expect(fold.events).toBe(events.length);
        expect(fold.gaps).toBe(0);
      }),
    );
  });
});
