// Fault-injection scenarios through a real Pi session (an AgentSession of the Pi coding agent's
// SDK, the scripted offline model answering both agent calls and Pi's own summary requests, faults
// at the provider boundary): MC-8 .. MC-14 as the session applies them.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessage, createAssistantMessageEventStream, type Message } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../../agent/tool.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../../models/registry.js";
import { type FaultName, injectFaults, overflowText } from "../../offline/faults.js";
import { createScriptedStreamFn, type Script } from "../../offline/scripted-model.js";
import type { AgentEvent, ContextSnapshot, EventOf, ModelInfo } from "../../types.js";
import { PiAgent, type PiAgentOptions } from "./pi-agent.js";
import { isSummaryRequest } from "./summary-request.js";
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

/** Records every agent request that reached the provider boundary; Pi's summary requests apart. */
function spy(inner: StreamFn, sent: Sent[], summaries: Sent[]): StreamFn {
  return (model, context, options) => {
    (isSummaryRequest(context) ? summaries : sent).push({ model: model.id, messages: [...context.messages] });
    return inner(model, context, options);
  };
}

/** Reports `tokens(reply)` tokens in the window when it returns a number (a big context, as a vendor reports it). */
function reporting(inner: StreamFn, tokens: (reply: AssistantMessage) => number | undefined): StreamFn {
  return async (model, context, options) => {
    const stream = await inner(model, context, options);
    if (isSummaryRequest(context)) return stream;
    const message = await stream.result();
    const want = tokens(message);
    const usage =
      want === undefined
        ? message.usage
        : {
            ...message.usage,
            input: 0,
            cacheWrite: 0,
            cacheRead: want,
            totalTokens: want + message.usage.output,
          };
    const final: AssistantMessage = { ...message, usage };
    const out = createAssistantMessageEventStream();
    out.push({ type: "start", partial: { ...final, content: [] } });
    if (final.stopReason === "error") out.push({ type: "error", reason: "error", error: final });
    else out.push({ type: "done", reason: final.stopReason as "stop" | "toolUse", message: final });
    out.end(final);
    return out;
  };
}

/** Holds Pi's summary requests until released (a compaction in flight). */
function holdSummaries(inner: StreamFn, started: () => void, held: Promise<void>): StreamFn {
  return async (model, context, options) => {
    if (!isSummaryRequest(context)) return inner(model, context, options);
    started();
    await Promise.race([
      held,
      new Promise<void>((resolve) =>
        options?.signal?.addEventListener("abort", () => resolve(), { once: true }),
      ),
    ]);
    if (options?.signal?.aborted) {
      const out = createAssistantMessageEventStream();
      const aborted: AssistantMessage = {
        role: "assistant",
        content: [],
        api: model.api,
        provider: model.provider,
        model: model.id,
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "aborted",
        errorMessage: "Request was aborted",
        timestamp: Date.now(),
      };
      out.push({ type: "error", reason: "aborted", error: aborted });
      out.end(aborted);
      return out;
    }
    return inner(model, context, options);
  };
}

function session(
  options: {
    faults?: FaultName[];
    rows?: string[];
    sent?: Sent[];
    wrap?: (s: StreamFn) => StreamFn;
    model?: ModelInfo;
  } & Pick<PiAgentOptions, "compactThreshold"> = {},
) {
  const rows = options.rows ?? [];
  const sent = options.sent ?? [];
  const summaries: Sent[] = [];
  let streamFn: StreamFn = createScriptedStreamFn({ script: ceo, seed: 1 });
  // The scripted CEO's hire is the side effect overflow-after-tool waits for.
  if (options.faults)
    streamFn = injectFaults(options.faults, { streamFn, sideEffectTools: ["hire_agent"] }).streamFn;
  if (options.wrap) streamFn = options.wrap(streamFn);
  const agent = new PiAgent(
    {
      sessionId: "ctx",
      systemPrompt: "You are the CEO of a test company.",
      model: options.model ?? OFFLINE,
      tools: [hireTool(rows)],
    },
    {
      streamFn: spy(streamFn, sent, summaries),
      ...(options.compactThreshold !== undefined ? { compactThreshold: options.compactThreshold } : {}),
    },
  );
  return { agent, rows, sent, summaries };
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

describe("MC-10 replay gate over Pi's native overflow recovery", () => {
  it("MC-10 overflow-before-output: Pi compacts natively and its continue is the one wire-only replay; the run ends done", async () => {
    const { agent, rows, sent, summaries } = session({ faults: ["overflow-before-output"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    expect(of(events, "recovery")).toEqual([
      {
        type: "recovery",
        action: "replay",
        reason: expect.stringMatching(/^explicit context overflow/),
      },
    ]);
    expect(of(events, "compaction_start")).toEqual([{ type: "compaction_start", reason: "overflow" }]);
    expect(of(events, "compaction_end")).toMatchObject([{ ok: true }]);
    expect(summaries).toHaveLength(1); // the model wrote the summary, through the same provider
    expect(of(events, "error")[0]?.message).toBe(overflowText(OFFLINE.contextWindow));
    expect(rows).toEqual(TEAM);
    // The replay sent the same user message again, behind Pi's summary; the failed reply is gone.
    expect(sent[1]!.messages.filter((m) => m.role === "user" && textOf(m) === CUE)).toHaveLength(1);
    expect(sent[1]!.messages.some((m) => m.role === "assistant")).toBe(false);
    expect(snapshotOf(events)).toMatchObject({ replays: 1, rollovers: 0 });
    await collect(agent.send("Anything else?"));
    expect(sent.at(-1)!.messages.filter((m) => m.role === "user" && textOf(m) === CUE)).toHaveLength(1);
    expect(sent.at(-1)!.messages.some((m) => m.role === "assistant" && m.stopReason === "error")).toBe(false);
  });

  it("MC-10 overflow-after-tool: Pi compacts, the gate refuses its continue: one failed terminal, the hire happened once", async () => {
    const { agent, rows, sent } = session({ faults: ["overflow-after-tool"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "failed");
    expect(of(events, "recovery")).toEqual([
      {
        type: "recovery",
        action: "fail-closed",
        reason: "context overflow, not replayed: the turn had tool side effects",
      },
    ]);
    expect(of(events, "compaction_end")).toMatchObject([{ ok: true }]); // Pi's native recovery compacted
    expect(rows).toEqual(["CTO"]);
    expect(sent).toHaveLength(2);
    expect(snapshotOf(events)).toMatchObject({ replays: 0, rollovers: 0 });
  });

  it("MC-10 a second overflow of the replayed message fails closed: never a replay loop", async () => {
    const always: StreamFn = (model, context, options) =>
      isSummaryRequest(context)
        ? createScriptedStreamFn({ script: ceo, seed: 1 })(model, context, options)
        : injectFaults(["overflow-before-output"], {
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
      /^pi ordinary timeout: report only; no rollover, no replay$/,
    ],
    [
      "MC-11 a stream cut mid-message",
      "stream-cut" as const,
      /^pi network failure: report only; no rollover, no replay$/,
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

describe("MC-8/MC-9 Pi's native compaction and the rollover", () => {
  it("MC-8 the snapshot carries occupancy from real usage, the 90% default and Pi's reserve frozen from it; Pi owns compaction", async () => {
    const { agent } = session();
    const events = await collect(agent.send(CUE));
    const snap = snapshotOf(events);
    expect(snap).toMatchObject({
      harness: "pi",
      model: OFFLINE_MODEL_ID,
      contextWindow: 128_000,
      threshold: 0.9,
      thresholdSource: "default",
      reserveTokens: 12_800,
      compactionOwner: "pi",
      sessionId: agent.piSession?.sessionId,
      needsRollover: false,
      openClaims: [],
    });
    expect(snap.tokensInWindow).toBeGreaterThan(0);
    expect(snap.occupancy).toBeCloseTo(snap.tokensInWindow / 128_000, 10);
    expect(snap.compactions).toEqual({ count: 0, succeeded: 0 });
    // The reserve is Pi's own setting, native auto-compaction on, Pi's own retry off (MC-10).
    expect(agent.piSession?.settingsManager.getCompactionSettings()).toMatchObject({
      enabled: true,
      reserveTokens: 12_800,
    });
    expect(agent.piSession?.settingsManager.getRetrySettings().enabled).toBe(false);
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

  it("MC-8 at contextWindow − reserveTokens Pi compacts natively after the run; the model writes the summary; usage counts the summary call once", async () => {
    const { agent, sent, summaries } = session({ wrap: (s) => reporting(s, () => 120_000) });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    const types = events.map((e) => e.type);
    const at = types.indexOf("compaction_start");
    // After the run's last call: start, the summary call's usage, end.
    expect(types.slice(at, at + 3)).toEqual(["compaction_start", "usage", "compaction_end"]);
    expect(types.lastIndexOf("turn_end")).toBeLessThan(at);
    const end = of(events, "compaction_end")[0]!;
    expect(end).toMatchObject({ ok: true, summary: expect.stringMatching(/^## Goal\n/) });
    expect(end.tokensAfter).toBeLessThan(120_000);
    expect(summaries).toHaveLength(1);
    // One usage event per agent call, plus the summary call's.
    expect(of(events, "usage")).toHaveLength(sent.length + 1);
    const snap = snapshotOf(events);
    expect(snap).toMatchObject({ compactions: { count: 1, succeeded: 1 }, lastCompaction: { result: "ok" } });
    expect(snap.occupancy).toBeLessThan(0.9);
    // The next send goes to the compacted window: Pi's summary first.
    await collect(agent.send("Next."));
    expect(textOf(sent.at(-1)!.messages[0]!)).toMatch(/compacted into the following summary/);
  });

  it("MC-9 compact-empty-summary: deterministic → latch at the end of the turn → the next send starts a fresh window from the handoff", async () => {
    const { agent, rows, sent } = session({ faults: ["compact-empty-summary"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    expect(of(events, "compaction_end")).toMatchObject([
      { ok: false, summary: "", error: "the compaction returned an empty summary" },
    ]);
    expect(of(events, "rollover")).toEqual([]);
    expect(snapshotOf(events)).toMatchObject({
      needsRollover: true,
      latchReason: "pi/silent: compaction produced an empty summary",
      lastCompaction: { result: "deterministic" },
    });
    expect(rows).toEqual(TEAM);
    const oldSession = snapshotOf(events).sessionId;
    const before = sent.length;
    const next = await collect(agent.send("Next: the budget."));
    const rollover = of(next, "rollover")[0]!;
    expect(rollover.reason).toBe(
      "idle direct send: needsRollover latched (pi/silent: compaction produced an empty summary)",
    );
    expect(rollover.fromSession).toBe(oldSession);
    expect(rollover.toSession).not.toBe(oldSession);
    // The first request of the fresh window: one message, the handoff (every hire in it), then the prompt.
    const fresh = sent[before]!.messages;
    expect(fresh).toHaveLength(1);
    expect(textOf(fresh[0]!)).toMatch(/^# Handoff\n/);
    for (const name of TEAM)
      expect(textOf(fresh[0]!)).toContain(`- hire_agent succeeded: {"name":"${name}"}`);
    expect(textOf(fresh[0]!)).not.toContain("agt_1"); // no tool_result body
    expect(textOf(fresh[0]!).endsWith("Next: the budget.")).toBe(true);
    expect(rows).toEqual(TEAM); // nothing done twice
    const snap = snapshotOf(next);
    expect(snap).toMatchObject({ rollovers: 1, needsRollover: false, sessionId: rollover.toSession });
    expect(snap.occupancy).toBeLessThan(0.9);
    expect(agent.sessionState).toMatchObject({ rolledOver: true });
  });

  it("MC-9 compact-overloaded: transient → no latch, no rollover; Pi retries natively before the next send and it succeeds", async () => {
    const { agent, rows, sent } = session({ faults: ["compact-overloaded"] });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "done");
    expect(of(events, "compaction_end")).toMatchObject([{ ok: false }]);
    expect(of(events, "compaction_end")[0]!.error).toMatch(/Summarization failed: 529 .*overloaded_error/);
    expect(snapshotOf(events)).toMatchObject({
      needsRollover: false,
      lastCompaction: { result: "transient" },
    });
    const before = sent.length;
    const next = await collect(agent.send("Next: the budget."));
    const ends = of(next, "compaction_end");
    expect(ends).toMatchObject([{ ok: true }]);
    expect(ends[0]!.tokensAfter).toBeLessThan(ends[0]!.tokensBefore!);
    expect(of(next, "rollover")).toEqual([]);
    expect(textOf(sent[before]!.messages[0]!)).toMatch(/compacted into the following summary/);
    expect(rows).toEqual(TEAM);
    expect(snapshotOf(next)).toMatchObject({
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
    expect(request).toHaveLength(1);
    expect(textOf(request[0]!)).toMatch(/^# Handoff\n[\s\S]*\n---\n\nNext: the budget\.$/);
    expect(snapshotOf(second)).toMatchObject({ needsRollover: false, rollovers: 1 });
  });

  it("MC-9 a window found full in the middle of a run: the next call is not sent (Pi rebuilds only between runs); the next send starts from the handoff and nothing is done twice", async () => {
    let full = true;
    const { agent, rows, sent } = session({ wrap: (s) => reporting(s, () => (full ? 128_000 : undefined)) });
    const events = await collect(agent.send(CUE));
    expectOneTerminal(events, "failed");
    expect(sent).toHaveLength(1);
    expect(rows).toEqual(["CTO"]);
    expect(of(events, "error").at(-1)).toMatchObject({ code: "rollover_pending" });
    full = false;
    const before = sent.length;
    const next = await collect(agent.send(CUE));
    expect(textOf(sent[before]!.messages[0]!)).toContain('- hire_agent succeeded: {"name":"CTO"}');
    expectOneTerminal(next, "done");
    expect(of(next, "rollover")).toHaveLength(1);
    expect(rows).toEqual(TEAM);
  });

  it("MC-9 below the threshold nothing compacts and nothing rolls over", async () => {
    const { agent, summaries } = session({ wrap: (s) => reporting(s, () => 115_000) });
    const events = await collect(agent.send(CUE));
    expect(of(events, "compaction_start")).toEqual([]);
    expect(of(events, "rollover")).toEqual([]);
    expect(summaries).toEqual([]);
  });
});

describe("MC-9 stop during a silent compaction", () => {
  it("MC-9 a cancel that interrupts Pi's threshold compaction is recorded as interrupted: no latch, no rollover, one cancelled terminal", async () => {
    let compacting: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (compacting = resolve));
    const { agent, rows } = session({
      wrap: (s) =>
        holdSummaries(
          reporting(s, () => 120_000),
          compacting,
          new Promise(() => undefined),
        ),
    });
    const turn = collect(agent.send(CUE));
    await started;
    agent.cancel();
    const events = await turn;
    expect(of(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(of(events, "compaction_end")).toMatchObject([{ ok: false, error: "the compaction was aborted" }]);
    expect(of(events, "rollover")).toEqual([]);
    expect(rows).toEqual(TEAM);
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
    // The first call on the new route already starts from the handoff: the old window was never resumed.
    const firstOnNewRoute = sent.find((s) => s.model === "offline-small-1")!;
    expect(firstOnNewRoute.messages).toHaveLength(1);
    expect(textOf(firstOnNewRoute.messages[0]!)).toMatch(/^# Handoff\n/);
    expect(of(events, "rollover")[0]!.reason).toMatch(/^switch to offline-small-1/);
    expect(snapshotOf(events)).toMatchObject({
      model: "offline-small-1",
      contextWindow: 10_000,
      reserveTokens: 1_000,
      rollovers: 1,
    });
    expect(agent.piSession?.settingsManager.getCompactionSettings().reserveTokens).toBe(1_000);
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
    // MC-8: the reserve is frozen again for the new window.
    expect(agent.piSession?.settingsManager.getCompactionSettings().reserveTokens).toBe(1_000);
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
  it("MC-14 cancel while Pi's overflow compaction is in flight: exactly one cancelled terminal, no replay sent", async () => {
    let compacting: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (compacting = resolve));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let overflowNext = false;
    const sent: Sent[] = [];
    const { agent } = session({
      sent,
      wrap: (s) =>
        holdSummaries(
          (model, context, options) => {
            if (!overflowNext) return s(model, context, options);
            overflowNext = false;
            return injectFaults(["overflow-before-output"], { streamFn: s }).streamFn(
              model,
              context,
              options,
            );
          },
          compacting,
          held,
        ),
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
    expect(of(events, "recovery")).toEqual([]);
    expect(agent.contextState.openClaims).toEqual([]);
  });
});
