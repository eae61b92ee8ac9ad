import fc from "fast-check";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { SessionBusyError } from "../agent/base-agent.js";
import { defineTool, textOutcome, type ToolDefinition } from "../agent/tool.js";
import { UserInputError } from "../errors.js";
import { PiAgent } from "../harness/pi/pi-agent.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../models/registry.js";
import { createScriptedStreamFn, type Script, serialiseRequest } from "../offline/scripted-model.js";
import { assembleSystemPrompt, SEGMENT_ORDER } from "./assemble.js";
import type { ModelCallPrefix } from "./prefix-guard.js";
import { ToolListFrozenError } from "./tool-list.js";
import { collect } from "../testing/events.js";

function tool(name: string, description = `The ${name} tool.`) {
  return defineTool({
    name,
    label: name,
    description,
    parameters: Type.Object({ text: Type.String() }, { additionalProperties: false }),
    validate: (raw) =>
      typeof (raw as { text?: unknown })?.text === "string"
        ? { ok: true, value: raw as { text: string } }
        : { ok: false, message: "text must be a string", fields: { text: "string" } },
    execute: async (input) =>
      textOutcome(`${name} saw ${input.text.length} characters`, input.text.includes("refuse")),
  });
}

const TOOLS = [tool("note"), tool("lookup")];
const PROMPT = assembleSystemPrompt(
  SEGMENT_ORDER.map((id) => ({
    id,
    text: `## ${id}\nThe ${id} instructions, stable for the whole session.`,
  })),
);

/** Calls as many tools as the user prompt asks for ("tools:N"), then answers in text. */
const script: Script = ({ context, random }) => {
  const messages = context.messages;
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]!.role !== "user") lastUser--;
  const user = messages[lastUser];
  const text =
    user && user.role === "user"
      ? typeof user.content === "string"
        ? user.content
        : user.content.map((c) => (c.type === "text" ? c.text : "")).join("")
      : "";
  const wanted = Number(/tools:(\d)/.exec(text)?.[1] ?? 0);
  const done = messages.slice(lastUser + 1).filter((m) => m.role === "toolResult").length;
  if (done < wanted) {
    const name = random() < 0.5 ? "note" : "lookup";
    return {
      content: [
        {
          type: "toolCall",
          name,
          arguments: {
            text: `${random() < 0.2 ? "refuse " : ""}${"x".repeat(1 + Math.floor(random() * 40))}`,
          },
        },
      ],
    };
  }
  return { content: [{ type: "text", text: `Answered after ${done} tool result(s).` }] };
};

function session(seed: number, requests: string[][], prefixes: ModelCallPrefix[]) {
  return new PiAgent(
    {
      sessionId: `guard-${seed}`,
      systemPrompt: PROMPT.systemPrompt,
      model: resolveModel(OFFLINE_MODEL_ID),
      tools: TOOLS,
    },
    {
      segments: PROMPT.segments,
      onModelCall: (p) => prefixes.push(p),
      streamFn: createScriptedStreamFn({
        seed,
        script: (r) => (requests.push(serialiseRequest(r.context)), script(r)),
      }),
    },
  );
}

type Step = { send: number } | { rewind: true };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 3 }).map((n) => ({ send: n })) },
  { weight: 1, arbitrary: fc.constant({ rewind: true as const }) },
);

describe("MC-3 the stable prefix is byte-identical on every model call", () => {
  it("property: for random turns, tool results and rewinds, the tools and system bytes never change", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 8 }),
        fc.nat({ max: 1000 }),
        async (steps, seed) => {
          const requests: string[][] = [];
          const prefixes: ModelCallPrefix[] = [];
          const agent = session(seed, requests, prefixes);
          let lastExchange = 0;
          for (const [i, s] of steps.entries()) {
            if ("rewind" in s) {
              if (lastExchange > 0) agent.rewind(lastExchange);
              lastExchange = 0;
              continue;
            }
            // Volatile content in the per-call user prompt is allowed: it is not part of the prefix.
            const events = await collect(
              agent.send(`Turn ${i} at ${new Date(1_700_000_000_000 + i).toISOString()}: tools:${s.send}`),
            );
            expect(events.at(-1)).toEqual({ type: "terminal", status: "done" });
            lastExchange = 1 + events.filter((e) => e.type === "turn_end" || e.type === "tool_result").length;
          }
          expect(prefixes).toHaveLength(requests.length);
          for (const [i, parts] of requests.entries()) {
            expect(parts[0]).toBe(requests[0]![0]); // tools
            expect(parts[1]).toBe(`system:${PROMPT.systemPrompt}`);
            expect(prefixes[i]!.segmentHashes).toEqual(
              Object.fromEntries(PROMPT.segments.map((seg) => [seg.id, seg.hash])),
            );
            expect(prefixes[i]!.toolsHash).toBe(prefixes[0]!.toolsHash);
            expect(prefixes[i]!.call).toBe(i + 1);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("property: a segment that changes mid-session fails the call closed, naming the segment, before the model is called", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: PROMPT.segments.length - 1 }), fc.nat(), async (which, at) => {
        const requests: string[][] = [];
        const agent = session(1, requests, []);
        await collect(agent.send("tools:0"));
        const segment = PROMPT.segments[which]!;
        const position = segment.start + (at % (segment.end - segment.start));
        // A bug that re-renders the prompt per call, e.g. with a clock in it.
        const pi = agent.piSession!.agent;
        const guarded = pi.streamFn;
        const altered = `${PROMPT.systemPrompt.slice(0, position)}7${PROMPT.systemPrompt.slice(position + 1)}`;
        pi.streamFn = (model, context, options) =>
          guarded(model, { ...context, systemPrompt: altered }, options);
        const events = await collect(agent.send("tools:0"));
        expect(requests).toHaveLength(1);
        const errors = events.filter((e) => e.type === "error");
        expect(errors).toEqual([
          {
            type: "error",
            code: "prompt_prefix_changed",
            message: expect.stringContaining(
              `model call 2: segment "${segment.id}" differs from the session's first call at character ${position}`,
            ),
          },
        ]);
        expect(events.at(-1)).toMatchObject({ type: "terminal", status: "failed" });
      }),
      { numRuns: 30 },
    );
  });

  it("a system prompt altered after assembly is refused on the first call", async () => {
    const requests: string[][] = [];
    const agent = new PiAgent(
      {
        sessionId: "altered",
        systemPrompt: `${PROMPT.systemPrompt}\nGenerated now`,
        model: resolveModel(OFFLINE_MODEL_ID),
        tools: TOOLS,
      },
      {
        segments: PROMPT.segments,
        streamFn: createScriptedStreamFn({ seed: 1, script: (r) => (requests.push([]), script(r)) }),
      },
    );
    const events = await collect(agent.send("hi"));
    expect(requests).toHaveLength(0);
    expect(events.find((e) => e.type === "error")).toMatchObject({
      code: "prompt_prefix_changed",
      message: expect.stringContaining("text after its last assembled segment"),
    });
  });
});

describe("MC-3 tools and MCP servers are frozen for a session", () => {
  it("setTools refuses an addition, a removal, a reordering and a redefinition, and accepts the same list", () => {
    const agent = session(1, [], []);
    expect(() => agent.setTools([...TOOLS])).not.toThrow();
    const cases: Array<[ToolDefinition[], RegExp]> = [
      [
        [...TOOLS, tool("search")],
        /session guard-1: tools and MCP servers are fixed for a session \(MC-3\), and the new tool list adds search\. Start a new session/,
      ],
      [[TOOLS[0]!], /the new tool list removes lookup/],
      [[TOOLS[1]!, TOOLS[0]!], /the new tool list reorders the tools \(note, lookup → lookup, note\)/],
      [
        [tool("note", "A better description."), TOOLS[1]!],
        /the new tool list changes the description of note/,
      ],
    ];
    for (const [tools, message] of cases) {
      expect(() => agent.setTools(tools)).toThrow(ToolListFrozenError);
      expect(() => agent.setTools(tools)).toThrow(message);
    }
    expect(agent.config.tools).toEqual(TOOLS);
  });

  it("a tool list changed behind the session's back is caught on the next model call", async () => {
    const requests: string[][] = [];
    const agent = session(2, requests, []);
    await collect(agent.send("tools:1"));
    const calls = requests.length;
    const pi = agent.piSession!.agent;
    const guarded = pi.streamFn;
    pi.streamFn = (model, context, options) =>
      guarded(model, { ...context, tools: [...(context.tools ?? [])].reverse() }, options);
    const events = await collect(agent.send("tools:0"));
    expect(requests).toHaveLength(calls);
    expect(events.find((e) => e.type === "error")).toMatchObject({
      code: "prompt_prefix_changed",
      message: expect.stringContaining(
        "the tool list differs from the session's first call (the new tool list reorders the tools (note, lookup → lookup, note))",
      ),
    });
  });
});

describe("rewind", () => {
  it("drops whole exchanges only, and never while a turn runs", async () => {
    const agent = session(3, [], []);
    await collect(agent.send("tools:1")); // user, assistant(tool call), tool result, assistant
    await collect(agent.send("tools:0")); // user, assistant
    expect(() => agent.rewind(1)).toThrow(UserInputError);
    expect(() => agent.rewind(1)).toThrow(
      "rewind: cannot drop 1 message(s) of 6; a rewind drops whole exchanges, starting at a user prompt. Valid counts: 2, 6",
    );
    agent.rewind(2);
    expect(() => agent.rewind(2)).toThrow("Valid counts: 4");
    const running = agent.send("tools:0");
    expect(() => agent.rewind(4)).toThrow(SessionBusyError);
    await collect(running);
  });
});
