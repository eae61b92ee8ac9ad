// Fault-injection scenarios through a real Pi session (pi-agent-core's loop, the scripted offline
// model, faults at the provider boundary): MC-8 .. MC-14 as the session applies them.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, Message } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../../agent/tool.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../../models/registry.js";
import { type FaultName, injectFaults, overflowText } from "../../offline/faults.js";
import { createScriptedStreamFn, type Script } from "../../offline/scripted-model.js";
import type { AgentEvent, ContextSnapshot, EventOf, ModelInfo } from "../../types.js";
import type { Compactor } from "./compactor.js";
import { PiAgent, type PiAgentOptions } from "./pi-agent.js";
import { collect } from "../../testing/events.js";

const OFFLINE = resolveModel(OFFLINE_MODEL_ID);
const TEAM = ["CTO", "CFO", "COO"];
const CUE = "You are the CEO. Build your team.";

function textOf(message: Message): string {
  if (message.role === "assistant") return "";
  return typeof message.content === "string"
    ? message.content
    : message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** Names hired so far, read like a model reads them: its own tool results, and a handoff's decisions. */
function hired(messages: readonly Message[]): string[] {
  const calls = new Map<string, string>();
  const names: string[] = [];
  for (const m of messages) {
    if (m.role === "assistant")
      for (const b of m.content) if (b.type === "toolCall") calls.set(b.id, String(b.arguments["name"]));
    if (m.role === "toolResult" && !m.isError) names.push(calls.get(m.toolCallId) ?? "?");
    if (m.role === "user")
      for (const match of textOf(m).matchAll(/^- hire_agent succeeded: (\{.*\})$/gm))
        names.push(String(JSON.parse(match[1] as string).name));
  }
  return names;
}

// A small CEO: hires the team one by one, then says so. Its replies are computed from the request.
const ceo: Script = ({ context }) => {
  const done = hired(context.messages);
  const next = TEAM.find((n) => !done.includes(n));
  if (!next) return { content: [{ type: "text", text: `Team complete: ${done.join(", ")}.` }] };
  return {
    content: [
      { type: "text", text: `Hiring a ${next}.` },
      { type: "toolCall", name: "hire_agent", arguments: { name: next } },
    ],
  };
};

function hireTool(rows: string[]) {
  return defineTool({
    name: "hire_agent",
    label: "Hire",
    description: "Hires one agent.",
    parameters: Type.Object({ name: Type.String() }, { additionalProperties: false }),
    validate: (raw) =>
      typeof (raw as { name?: unknown })?.name === "string"
        ? { ok: true, value: raw as { name: string } }
        : { ok: false, message: "name is required", fields: { name: "string" } },
    async execute(input) {
      rows.push(input.name);
      return textOutcome(JSON.stringify({ agentId: `agt_${rows.length}`, name: input.name }));
    },
  });
}

interface Sent {
  model: string;
  messages: Message[];
}

/** Records every request that reached the provider boundary (after the session's preparation). */
function spy(inner: StreamFn, sent: Sent[]): StreamFn {
  return (model, context, options) => {
    sent.push({ model: model.id, messages: [...context.messages] });
    return inner(model, context, options);
  };
}

/** Reports `tokens(reply)` tokens in the window when it returns a number (a big context, as a vendor reports it). */
function reporting(inner: StreamFn, tokens: (reply: AssistantMessage) => number | undefined): StreamFn {
  return async (model, context, options) => {
    const stream = await inner(model, context, options);
    const message = await stream.result();
    const want = tokens(message);
    if (want === undefined) {
      const { createAssistantMessageEventStream } = await import("@mariozechner/pi-ai");
      const out = createAssistantMessageEventStream();
      out.push(
        message.stopReason === "error"
          ? { type: "error", reason: "error", error: message }
          : { type: "done", reason: message.stopReason as "stop" | "toolUse", message },
      );
      out.end(message);
      return out;
    }
    const usage = { ...message.usage, input: 0, cacheWrite: 0, cacheRead: want };
    const { createAssistantMessageEventStream } = await import("@mariozechner/pi-ai");
    const out = createAssistantMessageEventStream();
    const final: AssistantMessage = { ...message, usage };
    out.push({ type: "start", partial: { ...final, content: [] } });
    if (final.stopReason === "error") out.push({ type: "error", reason: "error", error: final });
    else out.push({ type: "done", reason: final.stopReason as "stop" | "toolUse", message: final });
    out.end(final);
    return out;
  };
}

function session(
  options: {
    faults?: FaultName[];
    rows?: string[];
    sent?: Sent[];
    wrap?: (s: StreamFn) => StreamFn;
    compactor?: Compactor;
    model?: ModelInfo;
  } & Pick<PiAgentOptions, "compactThreshold"> = {},
) {
  const rows = options.rows ?? [];
  const sent = options.sent ?? [];
  let streamFn: StreamFn = createScriptedStreamFn({ script: ceo, seed: 1 });
  let compactor = options.compactor;
  if (options.faults) {
    // The scripted CEO's hire is the side effect overflow-after-tool waits for.
    const faulted = injectFaults(options.faults, {
      streamFn,
      sideEffectTools: ["hire_agent"],
      ...(compactor ? { compactor } : {}),
    });
    streamFn = faulted.streamFn;
    compactor = faulted.compactor;
  }
  if (options.wrap) streamFn = options.wrap(streamFn);
  const agent = new PiAgent(
    {
      sessionId: "ctx",
      systemPrompt: "You are the CEO of a test company.",
      model: options.model ?? OFFLINE,
      tools: [hireTool(rows)],
    },
    {
      streamFn: spy(streamFn, sent),
      ...(compactor ? { compactor } : {}),
      ...(options.compactThreshold !== undefined ? { compactThreshold: options.compactThreshold } : {}),
    },
  );
  return { agent, rows, sent };
}

const of = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);
const snapshotOf = (events: AgentEvent[]): ContextSnapshot =>
  (of(events, "context").at(-1) as EventOf<"context">).snapshot;

function expectOneTerminal(events: AgentEvent[], status: string) {
  expect(of(events, "terminal")).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: "terminal", status });
  // The context snapshot is the last thing before the terminal event (what the run stores for inspect).
  expect(events.at(-2)?.type).toBe("context");
}

describe("MC-10 replay gate in a real Pi session", () => {
  it("MC-10 overflow-before-output: exactly one wire-only replay of the failed user message, the run ends done", async () => {
    const { agent, rows, sent } = session({ faults: ["overflow-before-output"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    expect(of(events, "recovery")).toEqual([
      {
        type: "recovery",
        action: "replay",
        reason: expect.stringMatching(/^MC-10: explicit context overflow/),
      },
    ]);
    expect(of(events, "error")[0]?.message).toBe(overflowText(OFFLINE.contextWindow));
    expect(rows).toEqual(TEAM);
    // Wire-only: the replay resent the very request; the transcript holds the cue once.
    expect(sent[1]!.messages).toEqual(sent[0]!.messages);
    expect(snapshotOf(events)).toMatchObject({ replays: 1, rollovers: 0 });
    await collect(agent.send("Anything else?"));
    expect(sent.at(-1)!.messages.filter((m) => m.role === "user" && textOf(m) === CUE)).toHaveLength(1);
    expect(sent.at(-1)!.messages.some((m) => m.role === "assistant" && m.stopReason === "error")).toBe(false);
  });

  it("MC-10 overflow-after-tool: no replay, one failed terminal, the hire happened exactly once", async () => {
    const { agent, rows, sent } = session({ faults: ["overflow-after-tool"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "failed");
    expect(of(events, "recovery")).toEqual([
      {
        type: "recovery",
        action: "fail-closed",
        reason: "MC-10: context overflow, not replayed: the turn had tool side effects",
      },
    ]);
    expect(rows).toEqual(["CTO"]);
    expect(sent).toHaveLength(2);
    expect(snapshotOf(events)).toMatchObject({ replays: 0, rollovers: 0 });
  });

  it("MC-10 a second overflow of the replayed message fails closed: never a replay loop", async () => {
    const always: StreamFn = (model) =>
      injectFaults(["overflow-before-output"], {
        streamFn: createScriptedStreamFn({ script: ceo, seed: 1 }),
      }).streamFn(model, { messages: [] }, {});
    const { agent, sent, rows } = session({ wrap: () => always });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "failed");
    expect(of(events, "recovery").map((r) => r.action)).toEqual(["replay", "fail-closed"]);
    expect(sent).toHaveLength(2);
    expect(rows).toEqual([]);
  });
});

describe("MC-11 timeouts and cut streams: no rollover, no replay", () => {
  it.each([
    [
      "MC-11 an ordinary timeout",
      "timeout" as const,
      /^MC-11: pi ordinary timeout: report only; no rollover, no replay$/,
    ],
    [
      "MC-11 a stream cut mid-message",
      "stream-cut" as const,
      /^MC-11: pi network failure: report only; no rollover, no replay$/,
    ],
  ])("%s: error event, one failed terminal, no replay, no rollover", async (_name, fault, reason) => {
    const { agent, rows, sent } = session({ faults: [fault] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "failed");
    expect(of(events, "error")).toHaveLength(1);
    expect(of(events, "recovery")).toEqual([
      { type: "recovery", action: "fail-closed", reason: expect.stringMatching(reason) },
    ]);
    expect(of(events, "rollover")).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(rows).toEqual([]); // a cut message's tool call never runs
    expect(snapshotOf(events)).toMatchObject({ replays: 0, rollovers: 0, needsRollover: false });
  });
});

describe("MC-8/MC-9 compaction and rollover in a real Pi session", () => {
  it("MC-8 the snapshot carries occupancy from real usage, the 90% default and Pi's reserve frozen from it", async () => {
    const { agent } = session();
    const snap = snapshotOf(await collect(agent.send(CUE)));
    expect(snap).toMatchObject({
      harness: "pi",
      model: OFFLINE_MODEL_ID,
      contextWindow: 128_000,
      threshold: 0.9,
      thresholdSource: "default",
      reserveTokens: 12_800,
      needsRollover: false,
      openClaims: [],
    });
    expect(snap.tokensInWindow).toBeGreaterThan(0);
    expect(snap.occupancy).toBeCloseTo(snap.tokensInWindow / 128_000, 10);
    expect(snap.compactions).toEqual({ count: 0, succeeded: 0 });
  });

  it("MC-8 a user override wins and is frozen into Pi's reserve; an invalid one is refused", () => {
    expect(session({ compactThreshold: 0.5 }).agent.contextState).toMatchObject({
      threshold: 0.5,
      thresholdSource: "override",
      reserveTokens: 64_000,
    });
    expect(() => session({ compactThreshold: 1.5 })).toThrow(
      /compaction threshold must be a fraction in \(0, 1\]/,
    );
  });

  it("MC-9 compact-empty-summary: deterministic → latch → the next send starts a fresh window from the handoff", async () => {
    const { agent, rows, sent } = session({ faults: ["compact-empty-summary"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    const types = events.map((e) => e.type);
    const at = types.indexOf("compaction_start");
    expect(types.slice(at, at + 3)).toEqual(["compaction_start", "compaction_end", "rollover"]);
    expect(of(events, "compaction_end")[0]).toMatchObject({ ok: false, summary: "" });
    expect(of(events, "rollover")[0]!.reason).toMatch(
      /needsRollover latched \(pi\/silent: compaction produced an empty summary\)/,
    );
    // The send after the rollover: one message, the handoff, carrying the hire already made.
    const fresh = sent[1]!.messages;
    expect(fresh).toHaveLength(1);
    expect(textOf(fresh[0]!)).toMatch(/^# Handoff\n/);
    expect(textOf(fresh[0]!)).toContain('- hire_agent succeeded: {"name":"CTO"}');
    expect(textOf(fresh[0]!)).not.toContain("agt_1"); // no tool_result body
    expect(rows).toEqual(TEAM); // nothing done twice
    const snap = snapshotOf(events);
    expect(snap).toMatchObject({
      rollovers: 1,
      needsRollover: false,
      lastCompaction: { result: "deterministic" },
    });
    expect(snap.occupancy).toBeLessThan(0.9);
  });

  it("MC-9 compact-overloaded: transient → no latch, no rollover; retried at the next call and it succeeds", async () => {
    const { agent, rows, sent } = session({ faults: ["compact-overloaded"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    const ends = of(events, "compaction_end");
    expect(ends.map((e) => e.ok)).toEqual([false, true]);
    expect(ends[0]!.error).toMatch(/^529 .*overloaded_error/);
    expect(ends[1]!.tokensAfter).toBeLessThan(ends[1]!.tokensBefore!);
    expect(of(events, "rollover")).toEqual([]);
    // The retried compaction summarised the opening prompt and kept the latest exchange.
    const compacted = sent[2]!.messages;
    expect(textOf(compacted[0]!)).toMatch(/^# Handoff\n/);
    expect(compacted.slice(1).map((m) => m.role)).toEqual(["assistant", "toolResult"]);
    expect(rows).toEqual(TEAM);
    expect(snapshotOf(events)).toMatchObject({
      rollovers: 0,
      needsRollover: false,
      compactions: { count: 2, succeeded: 1 },
      lastCompaction: { result: "ok" },
    });
  });

  it("MC-9 an idle direct send passes the same preparation: a latch left by the last turn rolls over before the first call", async () => {
    let full = false;
    // Only the turn's last call reports a full window: the latch is left for the next send.
    const { agent, sent } = session({
      wrap: (s) => reporting(s, (reply) => (full && reply.stopReason === "stop" ? 128_000 : undefined)),
    });
    full = true;
    const first = await collect(agent.send(CUE));
    expect(snapshotOf(first)).toMatchObject({
      needsRollover: true,
      latchReason: "occupancy ≥ 100% (128000 of 128000 tokens)",
    });
    full = false;
    const before = sent.length;
    const second = await collect(agent.send("Next: the budget."));
    expect(of(second, "rollover")).toHaveLength(1);
    expect(of(second, "rollover")[0]!.reason).toMatch(
      /^idle direct send: needsRollover latched \(occupancy ≥ 100%/,
    );
    // Rolled over before its first model call: the handoff, then this send's prompt, nothing else.
    const request = sent[before]!.messages;
    expect(request.map((m) => m.role)).toEqual(["user", "user"]);
    expect(textOf(request[0]!)).toMatch(/^# Handoff\n/);
    expect(textOf(request[1]!)).toBe("Next: the budget.");
    expect(snapshotOf(second)).toMatchObject({ needsRollover: false, rollovers: 1 });
  });

  it("MC-9 every call reports a full window: each next call rolls over, and nothing is done twice", async () => {
    const { agent, rows } = session({ wrap: (s) => reporting(s, () => 128_000) });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    expect(of(events, "rollover").length).toBe(TEAM.length);
    expect(rows).toEqual(TEAM);
  });

  it("MC-9 below the threshold nothing compacts and nothing rolls over", async () => {
    const { agent } = session({ wrap: (s) => reporting(s, () => 115_199) });
    const events = await collect(agent.send(CUE));
    expect(of(events, "compaction_start")).toEqual([]);
    expect(of(events, "rollover")).toEqual([]);
  });
});

describe("MC-9 stop during a silent compaction", () => {
  it("MC-9 a cancel that interrupts Pi's threshold compaction is recorded as interrupted: no latch, no rollover, one cancelled terminal", async () => {
    let compacting: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (compacting = resolve));
    const compactor: Compactor = (request) =>
      new Promise((resolve) => {
        compacting();
        request.signal?.addEventListener("abort", () => resolve({ error: "Request was aborted" }), {
          once: true,
        });
      });
    const { agent, rows } = session({ compactor, wrap: (s) => reporting(s, () => 120_000) });
    const turn = collect(agent.send(CUE));
    await started;
    agent.cancel();
    const events = await turn;
    expect(of(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(of(events, "compaction_end")).toMatchObject([{ ok: false, error: "Request was aborted" }]);
    expect(of(events, "rollover")).toEqual([]);
    expect(rows).toEqual(["CTO"]);
    expect(snapshotOf(events)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "interrupted" },
    });
  });
});

describe("MC-13 model switch inside the session lock", () => {
  const small: ModelInfo = { ...OFFLINE, id: "offline-small-1", contextWindow: 10_000 };

  it("MC-13 at 95% of a smaller target window: a handoff into a fresh window first, then the new route", async () => {
    let tokens: number | undefined = 9_500;
    const { agent, sent } = session({ wrap: (s) => reporting(s, () => tokens) });
    await collect(agent.send(CUE));
    tokens = undefined;
    const verdict = await agent.setModel(small);
    expect(verdict.action).toBe("handoff-then-switch");
    expect(agent.model.id).toBe("offline-small-1");
    const events = await collect(agent.send("Next."));
    const request = sent.at(-1)!.messages;
    // The first call on the new route already starts from the handoff: the old window was never resumed.
    const firstOnNewRoute = sent.find((s) => s.model === "offline-small-1")!;
    expect(textOf(firstOnNewRoute.messages[0]!)).toMatch(/^# Handoff\n/);
    expect(firstOnNewRoute.messages.some((m) => m.role === "toolResult")).toBe(false);
    expect(request.length).toBeGreaterThan(0);
    expect(of(events, "rollover")[0]!.reason).toMatch(/^MC-13: switch to offline-small-1/);
    expect(snapshotOf(events)).toMatchObject({
      model: "offline-small-1",
      contextWindow: 10_000,
      reserveTokens: 1_000,
      rollovers: 1,
    });
  });

  it("MC-13 a target that fits: the new route, no handoff, the window kept", async () => {
    let tokens: number | undefined = 5_000;
    const { agent, sent } = session({ wrap: (s) => reporting(s, () => tokens) });
    await collect(agent.send(CUE));
    tokens = undefined;
    expect((await agent.setModel(small)).action).toBe("switch");
    const events = await collect(agent.send("Next."));
    expect(of(events, "rollover")).toEqual([]);
    expect(textOf(sent.find((s) => s.model === "offline-small-1")!.messages[0]!)).toBe(CUE);
  });

  it("MC-13 refused while a turn runs: fail closed, nothing switched", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { agent } = session({
      wrap: (s) => async (model, context, options) => {
        await gate;
        return s(model, context, options);
      },
    });
    const running = collect(agent.send(CUE));
    await new Promise((r) => setTimeout(r, 0));
    const verdict = await agent.setModel(small);
    expect(verdict).toMatchObject({
      action: "fail-closed",
      reason: "a turn is running: no hot switch then send",
    });
    release();
    const events = await running;
    expectOneTerminal(events, "done");
    expect(agent.model.id).toBe(OFFLINE_MODEL_ID);
  });
});

describe("MC-14 one terminal event per product turn", () => {
  it("MC-14 cancel while the replay is being prepared (Pi's overflow compaction in flight): exactly one cancelled terminal, no replay sent", async () => {
    let compacting: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (compacting = resolve));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const compactor: Compactor = async () => {
      compacting();
      await held;
      return { summary: "# Handoff\nsummary" };
    };
    let overflowNext = false;
    const sent: Sent[] = [];
    const { agent } = session({
      sent,
      compactor,
      wrap: (s) => (model, context, options) => {
        if (!overflowNext) return s(model, context, options);
        overflowNext = false;
        return injectFaults(["overflow-before-output"], { streamFn: s }).streamFn(model, context, options);
      },
    });
    await collect(agent.send(CUE)); // a transcript with something to compact
    overflowNext = true;
    const before = sent.length;
    const turn = collect(agent.send("And the budget?"));
    await started;
    agent.cancel();
    release();
    const events = await turn;
    expect(of(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(events.at(-1)?.type).toBe("terminal");
    expect(sent.length - before).toBe(1); // the failed call only: the replay never started
    expect(agent.contextState.openClaims).toEqual([]);
  });
});
