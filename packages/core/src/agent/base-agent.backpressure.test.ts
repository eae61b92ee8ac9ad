// The event queue's bound is enforced (MC-4): a consumer that falls behind pauses the harness, so the
// queue never holds more than its high-water mark plus one vendor message's events, whatever the
// length of the stream. Checked by the queue's length and the harness's pauses, never by a clock.
import { describe, expect, it } from "vitest";
import { OFFLINE_MODEL_ID, resolveModel } from "../models/registry.js";
import { createScriptedStreamFn } from "../offline/scripted-model.js";
import { PiAgent } from "../harness/pi/pi-agent.js";
import type { AgentEvent } from "../types.js";
import { BaseAgent, type Emit, type TurnOutcome } from "./base-agent.js";

const BOUND = 16;
/** A consumer slower than any producer: it lets every other task run before taking the next event. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads the whole stream slowly, noting the most events the session held buffered at any point. */
async function consumeSlowly(session: BaseAgent, events: AsyncIterable<AgentEvent>) {
  const seen: AgentEvent[] = [];
  let maxBuffered = 0;
  for await (const event of events) {
    seen.push(event);
    maxBuffered = Math.max(maxBuffered, session.bufferedEvents);
    await yieldToOthers();
    maxBuffered = Math.max(maxBuffered, session.bufferedEvents);
  }
  return { seen, maxBuffered };
}

/** A harness producing `count` events, one per vendor message, yielding between them as a stream read does. */
class Firehose extends BaseAgent {
  constructor(
    private readonly count: number,
    private readonly honourBound: boolean,
  ) {
    super({
      sessionId: "firehose",
      systemPrompt: "",
      model: resolveModel(OFFLINE_MODEL_ID),
      tools: [],
      eventBuffer: BOUND,
    });
  }
  protected async execute(_prompt: string, emit: Emit): Promise<TurnOutcome> {
    for (let i = 0; i < this.count; i++) {
      emit({ type: "text_delta", index: 0, delta: `${i} ` });
      await Promise.resolve(); // the next message arrives as a microtask: far faster than the consumer
      if (this.honourBound) {
        const room = this.roomForEvents();
        if (room) await room;
      }
    }
    return { status: "done" };
  }
}

describe("backpressure from a slow consumer", () => {
  it("without it a fast producer fills the queue with the whole stream (so the check below can fail)", async () => {
    const session = new Firehose(2000, false);
    const { seen, maxBuffered } = await consumeSlowly(session, session.send("go"));
    expect(seen.filter((e) => e.type === "text_delta")).toHaveLength(2000);
    expect(maxBuffered).toBeGreaterThan(1000);
  });

  it("pauses the producer at the bound: the queue stays flat and every event still arrives, in order", async () => {
    const session = new Firehose(2000, true);
    const { seen, maxBuffered } = await consumeSlowly(session, session.send("go"));
    const deltas = seen.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta);
    expect(deltas).toEqual(Array.from({ length: 2000 }, (_, i) => `${i} `));
    expect(seen.at(-1)).toEqual({ type: "terminal", status: "done" });
    expect(maxBuffered).toBeLessThanOrEqual(BOUND);
    expect(session.backpressurePauses).toBeGreaterThan(0);
  });

  it("pauses Pi's real agent loop too: a long streamed answer never fills the queue past the bound", async () => {
    const text = "word ".repeat(1500); // 7,500 characters in 3-character deltas: 2,500 events
    const session = new PiAgent(
      {
        sessionId: "pi-backpressure",
        systemPrompt: "You talk.",
        model: resolveModel(OFFLINE_MODEL_ID),
        tools: [],
        eventBuffer: BOUND,
      },
      {
        streamFn: createScriptedStreamFn({
          script: () => ({ content: [{ type: "text", text }] }),
          seed: 1,
          chunkSize: 3,
        }),
      },
    );
    const { seen, maxBuffered } = await consumeSlowly(session, session.send("talk"));
    const streamed = seen
      .filter((e) => e.type === "text_delta")
      .map((e) => (e as { delta: string }).delta)
      .join("");
    expect(streamed).toBe(text);
    expect(seen.at(-1)).toMatchObject({ type: "terminal", status: "done" });
    // At most the bound plus the events one of Pi's events becomes (a message's end: block end,
    // usage, turn end, context snapshot, terminal).
    expect(maxBuffered).toBeLessThanOrEqual(BOUND + 5);
    expect(session.backpressurePauses).toBeGreaterThan(0);
  });
});
