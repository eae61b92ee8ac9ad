// MC-11 (the Pi prompt timeout) and MC-12 (the one compression flow) through a real Pi session:
// an AgentSession of the Pi coding agent's SDK, the scripted offline model, failures at the
// provider boundary.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessage, createAssistantMessageEventStream, type Message } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../agent/tool.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../../models/registry.js";
import { injectFaults, overflowText } from "../../offline/faults.js";
import { createScriptedStreamFn, type Script } from "../../offline/scripted-model.js";
import type { AgentEvent, EventOf, ToolResultContent } from "../../types.js";
import { PiAgent, type PiAgentOptions } from "./pi-agent.js";
import { promptTimeoutText, REHEARSAL_PROMPT_TIMEOUT, rehearsalPromptTimeoutOf } from "./prompt-timeout.js";
import { collect } from "../../testing/events.js";
import { isSummaryRequest } from "./summary-request.js";

const OFFLINE = resolveModel(OFFLINE_MODEL_ID);
const KB = 1024;

/** A tool whose output is given: an inline image, a large text, or both. */
function lookTool(output: () => ToolResultContent[], runs: string[]) {
  return defineTool({
    name: "look",
    label: "Look",
    description: "Returns what the agent looks at.",
    parameters: Type.Object({}, { additionalProperties: false }),
    validate: (raw) => ({ ok: true, value: (raw ?? {}) as Record<string, never> }),
    async execute() {
      runs.push("look");
      return { content: output(), isError: false };
    },
  });
}

// Looks once per prompt, then answers; a handoff's "look succeeded" decision counts as having looked.
const looker: Script = ({ context }) => {
  const last = context.messages.at(-1);
  const looked =
    last?.role === "toolResult" || (last?.role === "user" && textOf(last).includes("look succeeded"));
  return looked
    ? { content: [{ type: "text", text: "Seen it." }] }
    : { content: [{ type: "toolCall", name: "look", arguments: {} }] };
};

const image = (bytes: number): ToolResultContent => ({
  type: "image",
  mimeType: "image/png",
  data: "A".repeat(bytes),
});
const text = (bytes: number): ToolResultContent => ({ type: "text", text: "x".repeat(bytes) });

interface Sent {
  messages: Message[];
  bytes: number;
}

function session(
  options: { output?: () => ToolResultContent[]; wrap?: (s: StreamFn) => StreamFn } & Pick<
    PiAgentOptions,
    "byteBudget" | "promptTimeoutMs"
  > = {},
) {
  const runs: string[] = [];
  const sent: Sent[] = [];
  let streamFn: StreamFn = createScriptedStreamFn({ script: looker, seed: 1 });
  if (options.wrap) streamFn = options.wrap(streamFn);
  const spy: StreamFn = (model, context, streamOptions) => {
    if (!isSummaryRequest(context))
      sent.push({
        messages: [...context.messages],
        bytes: Buffer.byteLength(JSON.stringify(context.messages)),
      });
    return streamFn(model, context, streamOptions);
  };
  // A rehearsal fault's short prompt timeout travels on its stream function; the spy passes it on.
  const rehearsal = rehearsalPromptTimeoutOf(streamFn);
  if (rehearsal !== undefined) Object.defineProperty(spy, REHEARSAL_PROMPT_TIMEOUT, { value: rehearsal });
  const agent = new PiAgent(
    {
      sessionId: "mc12",
      systemPrompt: "You look at things.",
      model: OFFLINE,
      tools: [lookTool(options.output ?? (() => [text(10)]), runs)],
    },
    {
      streamFn: spy,
      ...(options.byteBudget ? { byteBudget: options.byteBudget } : {}),
      ...(options.promptTimeoutMs !== undefined ? { promptTimeoutMs: options.promptTimeoutMs } : {}),
    },
  );
  return { agent, runs, sent };
}

const of = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);
const snapshotOf = (events: AgentEvent[]) => of(events, "context").at(-1)!.snapshot;
const terminalOf = (events: AgentEvent[]) => of(events, "terminal");
const textOf = (m: Message): string =>
  m.role === "assistant"
    ? ""
    : typeof m.content === "string"
      ? m.content
      : m.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("");

const BUDGET = { requestBytes: 50 * KB, oversizedImageBytes: 10 * KB };

describe("MC-12 one compression flow in a live Pi session", () => {
  it("MC-12 byte budget broken by an oversized inline image: stripped at the next send, a placeholder in the transcript, no model call", async () => {
    const { agent, runs, sent } = session({ byteBudget: BUDGET, output: () => [image(60 * KB)] });
    const events = await collect(agent.send("Look at the screen."));
    expect(terminalOf(events)).toEqual([{ type: "terminal", status: "done" }]);
    expect(of(events, "compression")).toEqual([
      {
        type: "compression",
        trigger: "next-send",
        action: "strip-images",
        reason: "byte budget broken by strippable oversized images",
        bytes: expect.any(Number),
        byteLimit: 50 * KB,
        strippedImages: 1,
        bytesFreed: expect.any(Number),
      },
    ]);
    const [strip] = of(events, "compression");
    expect(strip!.bytes).toBeGreaterThan(60 * KB);
    expect(strip!.bytesFreed).toBeGreaterThan(59 * KB);
    // Exactly the two model calls of the turn: the strip itself called nothing.
    expect(sent).toHaveLength(2);
    expect(sent[1]!.bytes).toBeLessThan(BUDGET.requestBytes);
    const result = sent[1]!.messages.find((m) => m.role === "toolResult")!;
    expect(textOf(result)).toMatch(
      /^\[image removed: image\/png, 61440 bytes of inline data over the request byte budget\]$/,
    );
    // What the tool reported at the time is not rewritten; the tool ran once.
    expect(of(events, "tool_result")[0]!.content[0]).toMatchObject({ type: "image" });
    expect(runs).toEqual(["look"]);
    expect(of(events, "rollover")).toEqual([]);
  });

  it("MC-12 byte budget broken and stripping would not get under it: handoff rebuild; in the middle of a run the call is not sent, and the next send starts from the handoff", async () => {
    const { agent, sent, runs } = session({
      byteBudget: { requestBytes: 30 * KB, oversizedImageBytes: 10 * KB },
      output: () => [image(40 * KB), text(35 * KB)],
    });
    const events = await collect(agent.send("Look at the screen."));
    // Pi rebuilds a window only between runs: the over-budget call is refused, never sent.
    expect(terminalOf(events)[0]!.status).toBe("failed");
    expect(sent).toHaveLength(1);
    expect(of(events, "compression")).toMatchObject([
      {
        trigger: "next-send",
        action: "handoff-rebuild",
        reason: "byte budget broken and stripping images would not get under it",
      },
    ]);
    expect(of(events, "error").at(-1)).toMatchObject({ code: "rollover_pending" });
    expect(snapshotOf(events)).toMatchObject({
      needsRollover: true,
      latchReason: "byte budget broken and stripping images would not get under it",
    });
    const next = await collect(agent.send("Carry on."));
    expect(of(next, "rollover")[0]!.reason).toBe(
      "idle direct send: needsRollover latched (byte budget broken and stripping images would not get under it)",
    );
    // The rebuilt window carries no tool_result body: the request fits; the look is not done again.
    expect(textOf(sent[1]!.messages[0]!)).toMatch(/^# Handoff\n/);
    expect(sent[1]!.bytes).toBeLessThan(30 * KB);
    expect(runs).toEqual(["look"]);
    expect(terminalOf(next)[0]!.status).toBe("done");
    expect(snapshotOf(next)).toMatchObject({ rollovers: 1, needsRollover: false });
  });

  it("MC-12 a mixed large tail with strippable images under half is not rescued: fail closed, an error event, one failed terminal, nothing sent", async () => {
    const { agent, runs, sent } = session({
      byteBudget: BUDGET,
      output: () => [image(20 * KB), text(45 * KB)],
    });
    const events = await collect(agent.send("Look at the screen."));
    expect(terminalOf(events)).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: "mixed large tail: strippable images under half the bytes, deliberately not rescued",
      },
    ]);
    expect(of(events, "compression")).toMatchObject([{ trigger: "next-send", action: "fail-closed" }]);
    expect(of(events, "error")).toEqual([
      {
        type: "error",
        message:
          "the request was not sent: mixed large tail: strippable images under half the bytes, deliberately not rescued",
        code: "compression_fail_closed",
      },
    ]);
    expect(of(events, "recovery")).toEqual([]); // refused before the provider: nothing to replay
    expect(sent).toHaveLength(1);
    expect(runs).toEqual(["look"]);
    expect(of(events, "rollover")).toEqual([]);
    expect(snapshotOf(events)).toMatchObject({ replays: 0, rollovers: 0, needsRollover: false });
  });

  it("MC-12 tool outputs have no tier of their own: a large text output with no image fails closed", async () => {
    const { agent } = session({ byteBudget: BUDGET, output: () => [text(60 * KB)] });
    const events = await collect(agent.send("Look."));
    expect(of(events, "compression")).toMatchObject([
      {
        action: "fail-closed",
        reason: "mixed large tail: strippable images under half the bytes, deliberately not rescued",
      },
    ]);
    expect(terminalOf(events)[0]!.status).toBe("failed");
  });

  it("MC-12 opening a session never triggers it: a session over budget from the start does nothing until its first send", async () => {
    const { agent, sent } = session({ byteBudget: { requestBytes: 10, oversizedImageBytes: 10 } });
    expect(sent).toEqual([]);
    expect(agent.contextState).toMatchObject({ needsRollover: false, rollovers: 0 });
    const events = await collect(agent.send("Look."));
    // The first send is the first trigger point.
    expect(of(events, "compression")).toMatchObject([{ trigger: "next-send", action: "fail-closed" }]);
    expect(sent).toEqual([]);
  });

  it("MC-12 fits: nothing happens and no event is emitted", async () => {
    const { agent } = session({ byteBudget: BUDGET, output: () => [image(5 * KB)] });
    const events = await collect(agent.send("Look."));
    expect(of(events, "compression")).toEqual([]);
    expect(terminalOf(events)[0]!.status).toBe("done");
  });

  it("MC-12 a terminal overflow Pi's native compaction could not rebuild: handoff rebuild, the next send starts from the handoff", async () => {
    let overflows = 2; // the first call and its one replay (MC-10)
    const { agent, sent } = session({
      wrap: (s) => (model, context, options) =>
        !isSummaryRequest(context) && overflows-- > 0
          ? injectFaults(["overflow-before-output"], { streamFn: s }).streamFn(model, context, options)
          : s(model, context, options),
    });
    const events = await collect(agent.send("Look at the screen."));
    expect(terminalOf(events)).toEqual([
      { type: "terminal", status: "failed", reason: overflowText(OFFLINE.contextWindow) },
    ]);
    expect(of(events, "recovery").map((r) => r.action)).toEqual(["replay", "fail-closed"]);
    expect(of(events, "compression")).toEqual([
      {
        type: "compression",
        trigger: "terminal-error",
        action: "handoff-rebuild",
        reason: "token budget broken: terminal context overflow",
        bytes: expect.any(Number),
        byteLimit: 32_000_000,
      },
    ]);
    expect(snapshotOf(events)).toMatchObject({
      needsRollover: true,
      latchReason: "token budget broken: terminal context overflow",
    });
    const next = await collect(agent.send("Try again."));
    expect(of(next, "rollover")[0]!.reason).toBe(
      "idle direct send: needsRollover latched (token budget broken: terminal context overflow)",
    );
    const request = sent[2]!.messages;
    expect(request).toHaveLength(1);
    expect(textOf(request[0]!)).toMatch(/^# Handoff\n[\s\S]*\n---\n\nTry again\.$/);
    expect(terminalOf(next)[0]!.status).toBe("done");
  });

  it("MC-12 an overflow Pi's native compaction already rebuilt (MC-8) is not rescued twice: no compression event, no latch", async () => {
    let fail = false;
    const { agent } = session({
      wrap: (s) => (model, context, options) => {
        if (!fail || context.messages.at(-1)?.role !== "toolResult") return s(model, context, options);
        fail = false;
        return injectFaults(["overflow-before-output"], { streamFn: s }).streamFn(model, context, options);
      },
    });
    await collect(agent.send("Look."));
    fail = true;
    const events = await collect(agent.send("Look again."));
    expect(of(events, "compaction_end")).toMatchObject([{ ok: true }]);
    expect(of(events, "recovery")).toMatchObject([{ action: "fail-closed" }]);
    expect(of(events, "compression")).toEqual([]);
    expect(snapshotOf(events)).toMatchObject({ needsRollover: false });
  });

  it("MC-12 occupancy ≥ 100% at the next send: the one rollover path performs the handoff (MC-9's latch decided it; no second rescue)", async () => {
    let full = true;
    const { agent, sent } = session({
      wrap: (s) => async (model, context, options) => {
        const message = await (await s(model, context, options)).result();
        const usage =
          full && !isSummaryRequest(context) && message.stopReason === "stop"
            ? { ...message.usage, input: 0, cacheWrite: 0, cacheRead: OFFLINE.contextWindow }
            : message.usage;
        const out = createAssistantMessageEventStream();
        const final: AssistantMessage = { ...message, usage };
        out.push({ type: "done", reason: final.stopReason as "stop" | "toolUse", message: final });
        out.end(final);
        return out;
      },
    });
    await collect(agent.send("Look."));
    full = false;
    const before = sent.length;
    const events = await collect(agent.send("Again."));
    expect(of(events, "rollover")).toHaveLength(1);
    expect(of(events, "rollover")[0]!.reason).toMatch(
      /^idle direct send: needsRollover latched \(occupancy ≥ 100%/,
    );
    expect(of(events, "compression")).toEqual([]);
    expect(textOf(sent[before]!.messages[0]!)).toMatch(/^# Handoff\n/);
  });
});

/** A provider that accepted the call and then says nothing until it is aborted. */
const stall: StreamFn = (model, _context, options) => {
  const out = createAssistantMessageEventStream();
  options?.signal?.addEventListener("abort", () => {
    const m: AssistantMessage = {
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
    out.push({ type: "error", reason: "aborted", error: m });
    out.end(m);
  });
  return out;
};

describe("MC-11 the Pi prompt timeout: the one timeout that may hand off", () => {
  it("MC-11 a call that produces nothing for the prompt timeout is aborted: failed terminal, no replay, and the next send starts from a handoff", async () => {
    let stalls = 0;
    const { agent, runs, sent } = session({
      promptTimeoutMs: 50,
      wrap: (s) => (model, context, options) =>
        !isSummaryRequest(context) && stalls-- > 0
          ? stall(model, context, options)
          : s(model, context, options),
    });
    expect(terminalOf(await collect(agent.send("Look.")))[0]!.status).toBe("done");
    stalls = 1;
    const timedOut = await collect(agent.send("And once more."));
    expect(terminalOf(timedOut)).toEqual([
      { type: "terminal", status: "failed", reason: promptTimeoutText(50) },
    ]);
    expect(of(timedOut, "error")).toMatchObject([{ message: promptTimeoutText(50) }]);
    expect(of(timedOut, "recovery")).toEqual([
      {
        type: "recovery",
        action: "fail-closed",
        reason:
          "Pi prompt timeout: the one timeout that may hand off; no replay: the next send starts from a handoff",
      },
    ]);
    expect(of(timedOut, "compression")).toEqual([]); // MC-11: a timeout never triggers compression
    expect(snapshotOf(timedOut)).toMatchObject({
      replays: 0,
      rollovers: 0,
      needsRollover: true,
      latchReason: of(timedOut, "recovery")[0]!.reason,
    });
    const before = sent.length;
    const next = await collect(agent.send("Carry on."));
    expect(of(next, "rollover")[0]!.reason).toMatch(
      /^idle direct send: needsRollover latched \(Pi prompt timeout/,
    );
    expect(textOf(sent[before]!.messages[0]!)).toMatch(/^# Handoff\n/);
    expect(terminalOf(next)[0]!.status).toBe("done");
    // The timed-out turn ran no tool; the fresh window's handoff says the look was done: not again.
    expect(runs).toEqual(["look"]);
  });

  it("MC-11 the first turn's first call stalling: the idle watchdog fires once, the stream never throws", async () => {
    const { agent, sent } = session({ promptTimeoutMs: 30, wrap: () => stall });
    const events = await collect(agent.send("Look."));
    expect(terminalOf(events)).toHaveLength(1);
    expect(terminalOf(events)[0]).toMatchObject({ status: "failed", reason: promptTimeoutText(30) });
    expect(sent).toHaveLength(1);
  });

  it("MC-11 a slow call that keeps streaming is not a prompt timeout (the watchdog is re-armed by every event)", async () => {
    const slow: StreamFn = (model, context, options) => {
      const out = createAssistantMessageEventStream();
      void (async () => {
        const message = await (
          await createScriptedStreamFn({
            script: () => ({ content: [{ type: "text", text: "ok" }] }),
            seed: 1,
          })(model, context, options)
        ).result();
        out.push({ type: "start", partial: { ...message, content: [] } });
        for (let i = 0; i < 6; i++) {
          await new Promise((r) => setTimeout(r, 20));
          out.push({ type: "text_delta", contentIndex: 0, delta: "", partial: { ...message, content: [] } });
        }
        out.push({ type: "done", reason: "stop", message });
        out.end(message);
      })();
      return out;
    };
    const { agent } = session({ promptTimeoutMs: 60, wrap: () => slow });
    const events = await collect(agent.send("Look."));
    expect(terminalOf(events)).toEqual([{ type: "terminal", status: "done" }]);
  });

  it.each([
    ["MC-11 an ordinary request timeout", "timeout" as const],
    ["MC-11 a network failure (stream cut)", "stream-cut" as const],
  ])("%s never hands off: no latch, and the next send goes to the same window", async (_name, fault) => {
    const { agent, sent } = session({ wrap: (s) => injectFaults([fault], { streamFn: s }).streamFn });
    const failed = await collect(agent.send("Look."));
    expect(terminalOf(failed)[0]!.status).toBe("failed");
    expect(snapshotOf(failed)).toMatchObject({ needsRollover: false });
    const next = await collect(agent.send("Again."));
    expect(of(next, "rollover")).toEqual([]);
    expect(of(next, "compression")).toEqual([]);
    expect(textOf(sent.at(-1)!.messages[0]!)).toBe("Look.");
  });

  it("MC-11 the prompt-timeout rehearsal fault stalls the first call; the session's rehearsal timeout hands off", async () => {
    const { agent } = session({ wrap: (s) => injectFaults(["prompt-timeout"], { streamFn: s }).streamFn });
    const events = await collect(agent.send("Look."));
    expect(terminalOf(events)[0]).toMatchObject({ status: "failed", reason: promptTimeoutText(1_000) });
    expect(snapshotOf(events)).toMatchObject({ needsRollover: true });
  });

  it("MC-11 an invalid prompt timeout is refused with a clear message", () => {
    expect(() => session({ promptTimeoutMs: 0 })).toThrow(
      /Pi prompt timeout \(config\.promptTimeoutMs, in ms\) must be a positive number \(got 0\)/,
    );
    expect(() => session({ promptTimeoutMs: Number.NaN })).toThrow(/must be a positive number/);
  });
});
