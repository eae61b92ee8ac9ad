import type { AssistantMessageEvent, Context } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { InternalError, UserInputError } from "../errors.js";
import { toPiModel } from "../harness/pi/pi-model.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../models/registry.js";
import { describeProviderError } from "../session/provider-error.js";
import { rehearsalPromptTimeoutOf } from "../harness/pi/prompt-timeout.js";
import {
  FAULT_NAMES,
  type FaultName,
  injectFaults,
  OVERLOADED_529,
  overflowText,
  parseFaultList,
  REHEARSAL_PROMPT_TIMEOUT_MS,
  REQUEST_TIMED_OUT,
  STREAM_ENDED,
} from "./faults.js";
import { createScriptedStreamFn } from "./scripted-model.js";

const model = toPiModel(resolveModel(OFFLINE_MODEL_ID));
const sayFn = () =>
  createScriptedStreamFn({
    script: () => ({ content: [{ type: "text", text: "Hiring a Chief Technology Officer now." }] }),
    seed: 1,
  });
/** The side-effecting tool of these requests: a company's hire (core itself names none). */
const SIDE_EFFECTS = ["hire_agent"];
const cue: Context = {
  systemPrompt: "s",
  messages: [{ role: "user", content: "Build the team.", timestamp: 0 }],
  tools: [],
};
const afterHire = (isError: boolean): Context => ({
  ...cue,
  messages: [
    ...cue.messages,
    {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "hire_agent", arguments: {} }],
      api: "x",
      provider: "x",
      model: "x",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: 0,
    },
    {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "hire_agent",
      content: [{ type: "text", text: "ok" }],
      isError,
      timestamp: 0,
    },
  ],
});

async function call(
  faults: readonly FaultName[],
  context: Context = cue,
  provider = injectFaults(faults, { streamFn: sayFn(), sideEffectTools: SIDE_EFFECTS }),
) {
  const stream = await provider.streamFn(model, context, {});
  const events: AssistantMessageEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, message: await stream.result(), provider };
}

describe("--faults LIST parsing", () => {
  it("accepts every documented fault, comma-separated, in order, without duplicates", () => {
    expect(parseFaultList(FAULT_NAMES.join(","))).toEqual([...FAULT_NAMES]);
    expect(parseFaultList(" timeout , stream-cut,timeout")).toEqual(["timeout", "stream-cut"]);
  });
  it.each(["nope", "timeout,", "", "Timeout"])("refuses %j, naming every allowed fault", (list) => {
    expect(() => parseFaultList(list)).toThrow(UserInputError);
    expect(() => parseFaultList(list)).toThrow(new RegExp(`allowed: ${FAULT_NAMES.join(", ")}`));
  });
});

describe("faults look exactly like the vendor failure pi-ai surfaces (stopReason error, the vendor's text)", () => {
  it("overflow-before-output: the request is refused before the stream starts, with Anthropic's overflow text", async () => {
    const { events, message } = await call(["overflow-before-output"]);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(message).toMatchObject({
      stopReason: "error",
      content: [],
      errorMessage: overflowText(model.contextWindow),
    });
    expect(describeProviderError(message.errorMessage!)).toMatchObject({
      status: 400,
      code: "invalid_request_error",
      message: `prompt is too long: ${model.contextWindow + 1873} tokens > ${model.contextWindow} maximum`,
    });
  });

  it("overflow-after-tool: fires only on the call right after a successful hire_agent, never before", async () => {
    const provider = injectFaults(["overflow-after-tool"], {
      streamFn: sayFn(),
      sideEffectTools: SIDE_EFFECTS,
    });
    expect((await call([], cue, provider)).message.stopReason).toBe("stop");
    expect((await call([], afterHire(true), provider)).message.stopReason).toBe("stop"); // a refused hire is no side effect
    expect((await call([], afterHire(false), provider)).message).toMatchObject({
      stopReason: "error",
      errorMessage: overflowText(model.contextWindow),
    });
    expect((await call([], afterHire(false), provider)).message.stopReason).toBe("stop"); // once
    expect(provider.fired()).toEqual(["overflow-after-tool"]);
  });

  it("overflow-after-tool: fires only after a tool the caller names; refused outright when it names none", async () => {
    const provider = injectFaults(["overflow-after-tool"], { streamFn: sayFn(), sideEffectTools: ["other"] });
    expect((await call([], afterHire(false), provider)).message.stopReason).toBe("stop");
    expect(provider.fired()).toEqual([]);
    expect(() => injectFaults(["overflow-after-tool"], { streamFn: sayFn() })).toThrow(InternalError);
  });

  it("timeout: the SDK's request timeout, before any output", async () => {
    const { events, message } = await call(["timeout"]);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(message).toMatchObject({ stopReason: "error", errorMessage: REQUEST_TIMED_OUT });
  });

  it("stream-cut: the stream starts, text arrives, then it ends before the message does", async () => {
    const { events, message } = await call(["stream-cut"]);
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(message).toMatchObject({
      stopReason: "error",
      errorMessage: STREAM_ENDED,
      content: [{ type: "text", text: "Hiring a Chief Tech" }],
    });
  });

  it("MC-11 prompt-timeout: the stream says nothing until the call is aborted; the faulted provider asks for a short rehearsal timeout", async () => {
    const provider = injectFaults(["prompt-timeout"], { streamFn: sayFn() });
    expect(rehearsalPromptTimeoutOf(provider.streamFn)).toBe(REHEARSAL_PROMPT_TIMEOUT_MS);
    expect(
      rehearsalPromptTimeoutOf(injectFaults(["timeout"], { streamFn: sayFn() }).streamFn),
    ).toBeUndefined();
    const controller = new AbortController();
    const stream = await provider.streamFn(model, cue, { signal: controller.signal });
    const events: AssistantMessageEvent[] = [];
    const read = (async () => {
      for await (const e of stream) events.push(e);
    })();
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([]); // a stall: nothing at all
    controller.abort();
    await read;
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect((await stream.result()).stopReason).toBe("aborted");
    expect((await call([], cue, provider)).message.stopReason).toBe("stop"); // once
  });

  it("each fault fires once; later calls pass through untouched", async () => {
    const provider = injectFaults(["timeout", "stream-cut"], { streamFn: sayFn() });
    expect((await call([], cue, provider)).message.errorMessage).toBe(REQUEST_TIMED_OUT);
    expect((await call([], cue, provider)).message.errorMessage).toBe(STREAM_ENDED);
    expect((await call([], cue, provider)).message.stopReason).toBe("stop");
    expect(provider.fired()).toEqual(["timeout", "stream-cut"]);
  });

  it("compact-*: the provider reports the window 95% full until the opening message leaves the window", async () => {
    const provider = injectFaults(["compact-overloaded"], { streamFn: sayFn() });
    const full = Math.floor(0.95 * model.contextWindow);
    for (let i = 0; i < 2; i++) {
      const { usage } = (await call([], cue, provider)).message;
      expect(usage.input + usage.cacheRead + usage.cacheWrite).toBe(full);
    }
    const compacted: Context = { ...cue, messages: [{ role: "user", content: "# Handoff …", timestamp: 0 }] };
    const { usage } = (await call([], compacted, provider)).message;
    expect(usage.input + usage.cacheRead + usage.cacheWrite).toBeLessThan(1000);
  });

  /** Pi's compaction-summary request, in its documented shape (pi-coding-agent compaction.ts). */
  const summaryRequest: Context = {
    systemPrompt: "You are a context summarization assistant. Your task is to read a conversation…",
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: '<conversation>\n[User]: Build the team.\n\n[Assistant tool calls]: hire_agent(name="CTO")\n</conversation>\n\nThe messages above are a conversation to summarize.',
          },
        ],
        timestamp: 0,
      },
    ],
  };
  const textOf = (m: { content: Array<{ type: string; text?: string }> }) =>
    m.content.map((c) => c.text ?? "").join("");

  it.each([["compact-empty-summary"], ["compact-overloaded"]] as const)(
    "%s: Pi's summary request fails that way once; the compaction after it meets the real model, and agent calls are untouched",
    async (name) => {
      const provider = injectFaults([name], { streamFn: sayFn() });
      const first = (await call([], summaryRequest, provider)).message;
      if (name === "compact-empty-summary") {
        expect(first.stopReason).toBe("stop");
        expect(textOf(first)).toBe("");
      } else {
        expect(first).toMatchObject({ stopReason: "error", errorMessage: OVERLOADED_529 });
        expect(describeProviderError(OVERLOADED_529)).toMatchObject({
          status: 529,
          code: "overloaded_error",
        });
      }
      expect(provider.fired()).toEqual([name]);
      // A later compaction (Pi's retry): the offline model writes a summary of what it reads.
      await Promise.resolve();
      const next = (await call([], summaryRequest, provider)).message;
      expect(textOf(next)).toMatch(/^## Goal\nBuild the team\.\n\n## Progress\n- hire_agent\(name="CTO"\)/);
      // Agent calls never meet a compaction fault.
      expect((await call([], cue, provider)).message.stopReason).toBe("stop");
    },
  );

  it("without a compaction fault, usage passes through exactly as the model reported it", async () => {
    const plain = await call([], cue, { streamFn: sayFn(), fired: () => [] });
    const wrapped = await call(
      [],
      cue,
      injectFaults(["overflow-after-tool"], { streamFn: sayFn(), sideEffectTools: SIDE_EFFECTS }),
    );
    expect(wrapped.message.usage).toEqual(plain.message.usage);
    expect(wrapped.events.map((e) => e.type)).toEqual(plain.events.map((e) => e.type));
  });
});
