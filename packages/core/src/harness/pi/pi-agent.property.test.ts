// MC-14 at the session level: for random interleavings of provider behaviour (tool calls, final
// text, overflows before and after output, timeouts, failures mid-stream, stalls, windows reported
// nearly or fully full), operator cancels at random points and late events from streams that
// already ended, every product turn of a real Pi session ends with exactly one terminal event,
// nothing follows it, no continuation claim is left open, and a user message is replayed at most once.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessage, createAssistantMessageEventStream, type Model } from "@mariozechner/pi-ai";
import fc from "fast-check";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../../agent/tool.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../../models/registry.js";
import { overflowText, REQUEST_TIMED_OUT } from "../../offline/faults.js";
import type { AgentEvent } from "../../types.js";
import { PiAgent } from "./pi-agent.js";
import { isSummaryRequest } from "./summary-request.js";

type Behaviour =
  | "tool"
  | "text"
  | "overflow"
  | "timeout"
  | "output-then-error"
  | "stall"
  | "tool-95"
  | "tool-full"
  | "summary";

// Overflows are weighted up: a replay, and a second overflow of the replayed message, must be common.
const behaviour = fc.oneof(
  {
    arbitrary: fc.constantFrom<Behaviour>(
      "tool",
      "text",
      "timeout",
      "output-then-error",
      "stall",
      "tool-95",
      "tool-full",
    ),
    weight: 7,
  },
  { arbitrary: fc.constant<Behaviour>("overflow"), weight: 4 },
);
const turnPlan = fc.record({
  calls: fc.array(behaviour, { minLength: 1, maxLength: 6 }),
  /** Cancel once the consumer has seen this many events of the turn (none: never). */
  cancelAfter: fc.option(fc.nat({ max: 30 }), { nil: undefined }),
  /** Streams that already ended keep pushing events (late events). */
  late: fc.boolean(),
});

const WINDOW = resolveModel(OFFLINE_MODEL_ID).contextWindow;
const ZERO = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function message(
  model: Model<any>,
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { ...ZERO, input: 40 },
    stopReason,
    timestamp: 0,
    ...extra,
  };
}

/** A provider whose every call follows the next planned behaviour (the rest: plain text). */
function chaos(plan: Behaviour[], late: () => boolean, onStall: () => void): StreamFn {
  let id = 0;
  return (model, context, options) => {
    // Pi's own compaction-summary requests are answered, not planned: the plan is the agent's calls.
    const kind = isSummaryRequest(context) ? "summary" : (plan.shift() ?? "text");
    const stream = createAssistantMessageEventStream();
    const strayLater = () => {
      if (!late()) return;
      setTimeout(
        () =>
          stream.push({
            type: "text_delta",
            contentIndex: 0,
            delta: "late",
            partial: message(model, [], "stop"),
          }),
        0,
      );
    };
    const finish = (final: AssistantMessage) => {
      if (final.stopReason === "error" || final.stopReason === "aborted")
        stream.push({ type: "error", reason: final.stopReason, error: final });
      else stream.push({ type: "done", reason: final.stopReason as "stop" | "toolUse", message: final });
      stream.end(final);
      strayLater();
    };
    queueMicrotask(() => {
      switch (kind) {
        case "overflow":
          return finish(message(model, [], "error", { errorMessage: overflowText(model.contextWindow) }));
        case "timeout":
          return finish(message(model, [], "error", { errorMessage: REQUEST_TIMED_OUT }));
        case "output-then-error": {
          const partial = message(model, [{ type: "text", text: "par" }], "stop");
          stream.push({ type: "start", partial });
          stream.push({ type: "text_start", contentIndex: 0, partial });
          stream.push({ type: "text_delta", contentIndex: 0, delta: "par", partial });
          return finish(
            message(model, [{ type: "text", text: "par" }], "error", {
              errorMessage: `500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
            }),
          );
        }
        case "stall": {
          const partial = message(model, [], "stop");
          stream.push({ type: "start", partial });
          const abort = () => finish(message(model, [], "aborted", { errorMessage: "Request was aborted" }));
          if (options?.signal?.aborted) return abort();
          options?.signal?.addEventListener("abort", abort, { once: true });
          onStall(); // the operator cancels while the provider stalls
          return;
        }
        case "text":
          return finish(message(model, [{ type: "text", text: "done" }], "stop"));
        case "summary":
          return finish(
            message(model, [{ type: "text", text: "## Goal\nhire\n## Progress\n- hired" }], "stop"),
          );
        default: {
          const usage = kind === "tool-95" ? Math.floor(0.95 * WINDOW) : kind === "tool-full" ? WINDOW : 40;
          const call = {
            type: "toolCall" as const,
            id: `call_${++id}`,
            name: "hire_agent",
            arguments: { name: `R${id}` },
          };
          return finish(
            message(model, [call], "toolUse", { usage: { ...ZERO, input: 40, cacheRead: usage - 40 } }),
          );
        }
      }
    });
    return stream;
  };
}

const tool = defineTool({
  name: "hire_agent",
  label: "Hire",
  description: "Hires one agent.",
  parameters: Type.Object({ name: Type.String() }, { additionalProperties: false }),
  validate: (raw) => ({ ok: true, value: raw as { name: string } }),
  execute: async (input) => textOutcome(`hired ${input.name}`),
});

describe("MC-14 property: one terminal per product turn in a real Pi session", () => {
  it("holds for random provider behaviour, cancels and late events, across several turns", async () => {
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(turnPlan, { minLength: 1, maxLength: 3 }), async (turns) => {
        const plan: Behaviour[] = [];
        let late = false;
        const cancel = { now: () => undefined as void };
        const streamFn = chaos(
          plan,
          () => late,
          () => queueMicrotask(() => cancel.now()),
        );
        const agent = new PiAgent(
          {
            sessionId: "prop",
            systemPrompt: "You hire.",
            model: resolveModel(OFFLINE_MODEL_ID),
            tools: [tool],
          },
          { streamFn },
        );
        cancel.now = () => agent.cancel();
        for (const t of turns) {
          plan.length = 0;
          plan.push(...t.calls);
          late = t.late;
          const events: AgentEvent[] = [];
          const stream = agent.send("go");
          if (t.cancelAfter === 0) agent.cancel();
          for await (const event of stream) {
            events.push(event);
            if (t.cancelAfter !== undefined && events.length === t.cancelAfter) agent.cancel();
          }
          const terminals = events.filter((e) => e.type === "terminal");
          expect(terminals).toHaveLength(1);
          expect(events.at(-1)?.type).toBe("terminal");
          expect(events.at(-2)?.type).toBe("context");
          expect(
            events.filter((e) => e.type === "recovery" && e.action === "replay").length,
          ).toBeLessThanOrEqual(1);
          expect(agent.isRunning).toBe(false);
          expect(agent.contextState.openClaims).toEqual([]);
          reached.add((terminals[0] as { status: string }).status);
          if (events.some((e) => e.type === "recovery" && e.action === "replay")) reached.add("replay");
          for (const e of events)
            if (e.type === "rollover" || e.type === "compaction_end" || e.type === "recovery")
              reached.add(e.type);
        }
        // Late events after a turn ended change nothing: let them land, then check nothing is running.
        await new Promise((r) => setTimeout(r, 1));
        expect(agent.isRunning).toBe(false);
      }),
      { numRuns: 120, seed: 20_261_130 },
    );
    // The generator really reached every kind of ending and every recovery path.
    expect([...reached].sort()).toEqual([
      "cancelled",
      "compaction_end",
      "done",
      "failed",
      "recovery",
      "replay",
      "rollover",
    ]);
  });
});
