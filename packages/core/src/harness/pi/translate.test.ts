import { readFileSync } from "node:fs";
import type { AgentEvent as PiEvent } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, ToolResultMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../types.js";
import { createPiTranslatorState, translatePiEvent } from "./translate.js";

// A real pi-agent-core event stream (thinking, text with multi-byte characters, two tool calls in
// one message, a failing tool call, a final answer), recorded from Pi's loop with the scripted model.
const piEvents = readFileSync(new URL("./__fixtures__/tool-round-trip.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as PiEvent);

function translateAll(events: PiEvent[]): AgentEvent[] {
  const state = createPiTranslatorState();
  return events.flatMap((e) => translatePiEvent(e, state));
}

interface Folded {
  content: Array<{
    type: string;
    text?: string;
    thinking?: string;
    id?: string;
    name?: string;
    input?: unknown;
  }>;
  stopReason?: string;
  usage?: unknown;
}

/** Rebuilds assistant messages from deltas only (not from *_end snapshots), to prove nothing is lost. */
function fold(events: AgentEvent[]): Folded[] {
  const messages: Folded[] = [];
  let current: Folded | undefined;
  const args = new Map<number, string>();
  for (const e of events) {
    if (e.type === "turn_start") {
      current = { content: [] };
      messages.push(current);
      args.clear();
    } else if (!current) continue;
    else if (e.type === "text_start") current.content[e.index] = { type: "text", text: "" };
    else if (e.type === "text_delta") current.content[e.index]!.text += e.delta;
    else if (e.type === "thinking_start") current.content[e.index] = { type: "thinking", thinking: "" };
    else if (e.type === "thinking_delta") current.content[e.index]!.thinking += e.delta;
    else if (e.type === "toolcall_start") {
      current.content[e.index] = { type: "tool_use", id: e.id, name: e.name };
      args.set(e.index, "");
    } else if (e.type === "toolcall_delta") args.set(e.index, (args.get(e.index) ?? "") + e.delta);
    else if (e.type === "toolcall_end")
      current.content[e.index]!.input = JSON.parse(args.get(e.index) ?? "{}");
    else if (e.type === "usage") current.usage = e.usage;
    else if (e.type === "turn_end") current.stopReason = e.vendorStopReason;
  }
  return messages;
}

describe("Pi translator (MC-5: lossless against Pi's own final messages)", () => {
  const events = translateAll(piEvents);
  const end = piEvents.find((e) => e.type === "agent_end") as Extract<PiEvent, { type: "agent_end" }>;
  const assistants = end.messages.filter(
    (m): m is AssistantMessage => (m as { role: string }).role === "assistant",
  );
  const toolResults = end.messages.filter(
    (m): m is ToolResultMessage => (m as { role: string }).role === "toolResult",
  );

  it("reconstructs every assistant message: blocks in order, text and arguments exact, stop reason and usage", () => {
    const folded = fold(events);
    expect(folded).toHaveLength(assistants.length);
    folded.forEach((message, i) => {
      const pi = assistants[i]!;
      expect(message.content).toEqual(
        pi.content.map((b) =>
          b.type === "text"
            ? { type: "text", text: b.text }
            : b.type === "thinking"
              ? { type: "thinking", thinking: b.thinking }
              : { type: "tool_use", id: b.id, name: b.name, input: b.arguments },
        ),
      );
      expect(message.stopReason).toBe(pi.stopReason);
      expect(message.usage).toEqual({
        input: pi.usage.input,
        output: pi.usage.output,
        cacheRead: pi.usage.cacheRead,
        cacheWrite: pi.usage.cacheWrite,
      });
    });
  });

  it("*_end events agree with the deltas before them", () => {
    const deltas = new Map<number, string>();
    for (const e of events) {
      if (e.type === "text_start" || e.type === "thinking_start") deltas.set(e.index, "");
      if (e.type === "text_delta" || e.type === "thinking_delta")
        deltas.set(e.index, deltas.get(e.index)! + e.delta);
      if (e.type === "text_end") expect(e.text).toBe(deltas.get(e.index));
      if (e.type === "thinking_end") expect(e.thinking).toBe(deltas.get(e.index));
    }
  });

  it("every tool execution becomes tool_use then tool_result, in order, with isError and content kept", () => {
    const uses = events.filter((e) => e.type === "tool_use");
    const results = events.filter(
      (e): e is Extract<AgentEvent, { type: "tool_result" }> => e.type === "tool_result",
    );
    expect(uses.map((u) => (u as { id: string }).id)).toEqual(toolResults.map((r) => r.toolCallId));
    expect(results.map((r) => ({ id: r.toolUseId, isError: r.isError, content: r.content }))).toEqual(
      toolResults.map((r) => ({ id: r.toolCallId, isError: r.isError, content: r.content })),
    );
    expect(results.some((r) => r.isError)).toBe(true);
    for (const r of results) {
      const useIndex = events.findIndex((e) => e.type === "tool_use" && e.id === r.toolUseId);
      expect(useIndex).toBeLessThan(events.indexOf(r));
    }
  });

  it("turns are balanced and numbered; unknown Pi event types are carried, not dropped", () => {
    const starts = events.filter((e) => e.type === "turn_start").map((e) => (e as { turn: number }).turn);
    const ends = events.filter((e) => e.type === "turn_end").map((e) => (e as { turn: number }).turn);
    expect(starts).toEqual([1, 2, 3]);
    expect(ends).toEqual(starts);
    const state = createPiTranslatorState();
    const carried = translatePiEvent({ type: "compaction_hint", detail: 1 } as unknown as PiEvent, state);
    expect(carried).toEqual([
      {
        type: "unknown",
        vendor: "pi",
        vendorType: "compaction_hint",
        raw: { type: "compaction_hint", detail: 1 },
      },
    ]);
  });
});

// What an AgentSession of the Pi coding agent's SDK adds to the loop's events, recorded from the real
// SDK with __fixtures__/record-session-events.mjs (threshold and overflow compaction, their
// failures, auto-retry): the session-level events the Pi harness consumes (MC-5, MC-8, MC-9).
const session = (name: string): PiEvent[] =>
  readFileSync(new URL(`./__fixtures__/${name}.jsonl`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as PiEvent);
const only = (events: AgentEvent[], ...types: AgentEvent["type"][]) =>
  events.filter((e) => types.includes(e.type));

describe("Pi session events: compaction and auto-retry", () => {
  it("MC-8 a threshold compaction: start then end with the model's summary and Pi's estimate before it", () => {
    const events = translateAll(session("session-compaction"));
    expect(only(events, "compaction_start", "compaction_end")).toEqual([
      { type: "compaction_start", reason: "threshold" },
      {
        type: "compaction_end",
        ok: true,
        summary: "## Goal\nAnswer the questions.\n## Progress\n- answered two",
        tokensBefore: expect.any(Number),
      },
    ]);
    expect(only(events, "unknown")).toEqual([]);
  });

  it("MC-9 failures as Pi reports them: an empty summary (stored as a success) is not ok; a failed summary call keeps the vendor's text", () => {
    const events = translateAll(session("session-compaction-failures"));
    expect(only(events, "compaction_end")).toEqual([
      {
        type: "compaction_end",
        ok: false,
        summary: "",
        error: "the compaction returned an empty summary",
        tokensBefore: expect.any(Number),
      },
      {
        type: "compaction_end",
        ok: false,
        error:
          'Auto-compaction failed: Turn prefix summarization failed: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      },
    ]);
  });

  it("MC-8 overflow: Pi's compaction says it will retry; a second overflow of the same message is Pi's refusal, not a compaction", () => {
    const events = translateAll(session("session-overflow"));
    expect(only(events, "compaction_start", "compaction_end", "error")).toEqual([
      {
        type: "error",
        code: "provider_error",
        message: expect.stringContaining("prompt is too long"),
      },
      { type: "compaction_start", reason: "overflow" },
      {
        type: "compaction_end",
        ok: true,
        summary: expect.stringMatching(/^## Goal/),
        tokensBefore: expect.any(Number),
      },
      {
        type: "error",
        code: "provider_error",
        message: expect.stringContaining("prompt is too long"),
      },
      {
        type: "error",
        code: "overflow_recovery_exhausted",
        message:
          "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.",
      },
    ]);
  });

  it("auto-retry: each attempt is Pi's replay with its reason; giving up fails closed; a success adds nothing", () => {
    const events = translateAll(session("session-auto-retry"));
    expect(only(events, "recovery")).toEqual([
      {
        type: "recovery",
        action: "replay",
        reason: expect.stringMatching(/^Pi auto-retry 1\/1 in \d+ ms: 529 .*overloaded_error/),
      },
      {
        type: "recovery",
        action: "replay",
        reason: expect.stringMatching(/^Pi auto-retry 1\/1 in \d+ ms: 529/),
      },
      {
        type: "recovery",
        action: "fail-closed",
        reason: expect.stringMatching(/^Pi auto-retry gave up after 1 attempt\(s\): 529/),
      },
    ]);
    expect(only(events, "unknown")).toEqual([]);
  });

  it("the session's other events are carried as unknown, never dropped", () => {
    const state = createPiTranslatorState();
    expect(translatePiEvent({ type: "queue_update", steering: [], followUp: ["x"] }, state)).toEqual([
      {
        type: "unknown",
        vendor: "pi",
        vendorType: "queue_update",
        raw: { type: "queue_update", steering: [], followUp: ["x"] },
      },
    ]);
  });
});
