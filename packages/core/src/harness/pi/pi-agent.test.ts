import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../agent/tool.js";
import { textOutcome } from "../../agent/tool.js";
import { resolveModel, OFFLINE_MODEL_ID } from "../../models/registry.js";
import { createScriptedStreamFn, type Script } from "../../offline/scripted-model.js";
import { PiAgent } from "./pi-agent.js";
import { collect } from "../../testing/events.js";

const calls: unknown[] = [];
const addTool = defineTool({
  name: "add",
  label: "Add",
  description: "Adds two integers.",
  parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }, { additionalProperties: false }),
  validate(raw) {
    const r = raw as { a?: unknown; b?: unknown };
    if (typeof r?.a !== "number" || typeof r?.b !== "number")
      return { ok: false, message: "add: a and b must be integers", fields: { a: "integer", b: "integer" } };
    return { ok: true, value: { a: r.a, b: r.b } };
  },
  async execute(input) {
    calls.push(input);
    if (input.a < 0) return textOutcome("add refuses negative numbers: a must be ≥ 0", true);
    return textOutcome(String(input.a + input.b));
  },
});

// Asks for the tool until it has a result, then reports it: replies are computed from the request.
const script: Script = ({ context }) => {
  const last = context.messages.at(-1);
  if (last?.role === "toolResult") {
    const text = last.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    return {
      content: [{ type: "text", text: last.isError ? `The tool refused: ${text}` : `The sum is ${text}.` }],
    };
  }
  const content = last?.role === "user" ? last.content : "";
  const userText =
    typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "")).join("");
  const [a, b] = userText.match(/-?\d+/g)?.map(Number) ?? [0, 0];
  return {
    content: [
      { type: "text", text: "Let me add those." },
      { type: "toolCall", name: "add", arguments: userText.includes("wrong") ? { a: "x", b } : { a, b } },
    ],
  };
};

function agent(seed = 1) {
  return new PiAgent(
    {
      sessionId: `test-${seed}`,
      systemPrompt: "You add numbers.",
      model: resolveModel(OFFLINE_MODEL_ID),
      tools: [addTool],
    },
    { streamFn: createScriptedStreamFn({ script, seed }) },
  );
}

describe("Pi harness over the Pi coding agent's SDK (an AgentSession, hermetic)", () => {
  it("runs a tool call round trip and streams start/delta/end blocks, tool_use, tool_result, usage, one terminal", async () => {
    const events = await collect(agent().send("add 2 and 40"));
    const types = events.map((e) => e.type);
    expect(events[0]).toMatchObject({ type: "session", action: "started", harness: "pi" });
    // What Pi offers this run, as the company decided (its tools, no coding tool), before the model is called.
    expect(events[1]).toMatchObject({
      type: "harness_tools",
      harness: "pi",
      tools: ["add"],
      expected: ["add"],
    });
    expect(events[1]).not.toHaveProperty("problem");
    expect(types[2]).toBe("turn_start");
    expect(types.at(-1)).toBe("terminal");
    expect(events.filter((e) => e.type === "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const toolUse = events.find((e) => e.type === "tool_use");
    expect(toolUse).toMatchObject({ name: "add", input: { a: 2, b: 40 } });
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "add", isError: false, content: [{ type: "text", text: "42" }] });
    // Text streamed in deltas reassembles exactly to its end event.
    const texts = events.filter((e) => e.type === "text_end").map((e) => (e as { text: string }).text);
    expect(texts).toEqual(["Let me add those.", "The sum is 42."]);
    const deltas = events
      .filter((e) => e.type === "text_delta")
      .map((e) => (e as { delta: string }).delta)
      .join("");
    expect(deltas).toBe("Let me add those.The sum is 42.");
    // Two model calls → two turns with stop reasons, two usage events.
    expect(
      events.filter((e) => e.type === "turn_end").map((e) => (e as { stopReason: string }).stopReason),
    ).toEqual(["tool_use", "end_turn"]);
    expect(events.filter((e) => e.type === "usage")).toHaveLength(2);
    const toolcallEnd = events.find((e) => e.type === "toolcall_end");
    expect(toolcallEnd).toMatchObject({ name: "add", input: { a: 2, b: 40 } });
  });

  it("turns a validation failure into an error tool result the model reads, without executing the tool", async () => {
    const before = calls.length;
    const events = await collect(agent(2).send("add wrong 3"));
    expect(calls.length).toBe(before);
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "add: a and b must be integers" }],
    });
    expect(events.at(-1)).toMatchObject({ type: "terminal", status: "done" });
  });

  it("reports a handler refusal as an error result with the handler's text", async () => {
    const events = await collect(agent(3).send("add -1 and 3"));
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "add refuses negative numbers: a must be ≥ 0" }],
    });
  });

  it("keeps the prompt cache warm across turns of one session (simulated prefix cache)", async () => {
    const a = agent(4);
    await collect(a.send("add 1 and 2"));
    const second = await collect(a.send("add 3 and 4"));
    const usage = second
      .filter((e) => e.type === "usage")
      .map((e) => (e as { usage: { cacheRead: number } }).usage);
    expect(usage[0]!.cacheRead).toBeGreaterThan(0);
    expect(a.usage.cacheRead).toBeGreaterThan(0);
  });

  it("a provider failure ends the turn with an error event and one failed terminal, never a throw", async () => {
    const failing = new PiAgent(
      { sessionId: "f", systemPrompt: "x", model: resolveModel(OFFLINE_MODEL_ID), tools: [] },
      {
        streamFn: createScriptedStreamFn({
          script: () => ({ error: "overloaded_error: try later" }),
          seed: 1,
        }),
      },
    );
    const events = await collect(failing.send("hi"));
    expect(events.filter((e) => e.type === "error")).toMatchObject([
      { message: "overloaded_error: try later" },
    ]);
    expect(events.filter((e) => e.type === "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: "overloaded_error: try later" },
    ]);
  });
});
