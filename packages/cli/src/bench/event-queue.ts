// Event-queue hot path (MC-4): every harness event goes through BaseAgent's EventQueue. Measured in
// the same run, on the same events, consumed the same way (`for await`), against:
//  - a bare async iterator producing the same stream — an async generator yielding each event as
//    the producer has it, with the same pacing: what a harness would expose without a queue. This is
//    the target's baseline (≤ 10% over it);
//  - the floor: a hand-written iterator over an array that already holds every event (no hand-over
//    at all, nothing buffered). No producer can be cheaper; the ratio is reported, not targeted.
// Two shapes: a burst (the producer is ahead of the consumer: everything is buffered, then drained)
// and a live hand-off (the consumer waits; the producer delivers small batches between microtask
// turns, as a translator does per vendor chunk).
import { type AgentEvent, EventQueue } from "@cadre/core";
import { measureVariants, type Sample } from "./measure.js";
import { atMost, type Benchmark, type BenchFigure, figure } from "./registry.js";

const EVENTS = 200_000;
const BATCH = 8;
const TARGET_RATIO = 1.1;

/** A realistic stream: per model call, a turn start, text deltas, a tool call, usage, a turn end. */
function buildEvents(count: number): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (let turn = 1; out.length < count; turn++) {
    out.push({ type: "turn_start", turn });
    out.push({ type: "text_start", index: 0 });
    for (let i = 0; i < 24; i++) out.push({ type: "text_delta", index: 0, delta: "some streamed words " });
    out.push({ type: "text_end", index: 0, text: "…" });
    out.push({ type: "toolcall_start", index: 1, id: `call_${turn}`, name: "hire_agent" });
    for (let i = 0; i < 6; i++) out.push({ type: "toolcall_delta", index: 1, delta: '{"name":"CTO",' });
    out.push({ type: "toolcall_end", index: 1, id: `call_${turn}`, name: "hire_agent", input: {} });
    out.push({ type: "usage", usage: { input: 10, output: 20, cacheRead: 300, cacheWrite: 0 } });
    out.push({ type: "turn_end", turn, stopReason: "tool_use" });
  }
  return out.slice(0, count);
}

/** The floor: one already-resolved promise per item, nothing else. */
function arrayIterator<T>(items: readonly T[]): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        next: () =>
          Promise.resolve(
            i < items.length
              ? { value: items[i++] as T, done: false }
              : { value: undefined as T, done: true },
          ),
      };
    },
  };
}

// The consumer does the same trivial work in every variant, so nothing is optimised away.
let sink = 0;
async function consume(stream: AsyncIterable<AgentEvent>): Promise<void> {
  for await (const event of stream) sink += event.type.length;
}

async function* generatorBurst(events: readonly AgentEvent[]): AsyncGenerator<AgentEvent> {
  for (const event of events) yield event;
}

async function* generatorLive(events: readonly AgentEvent[]): AsyncGenerator<AgentEvent> {
  for (let i = 0; i < events.length; i += BATCH) {
    for (let j = i; j < Math.min(i + BATCH, events.length); j++) yield events[j] as AgentEvent;
    await null; // the next vendor chunk arrives in a later microtask
  }
}

async function queueBurst(events: readonly AgentEvent[]): Promise<void> {
  const queue = new EventQueue<AgentEvent>({ highWaterMark: events.length + 1 });
  for (const event of events) queue.push(event);
  queue.close();
  await consume(queue);
}

async function queueLive(events: readonly AgentEvent[]): Promise<void> {
  const queue = new EventQueue<AgentEvent>();
  const produce = async () => {
    for (let i = 0; i < events.length; i += BATCH) {
      for (let j = i; j < Math.min(i + BATCH, events.length); j++) queue.push(events[j] as AgentEvent);
      await null; // the next vendor chunk arrives in a later microtask
    }
    queue.close();
  };
  await Promise.all([produce(), consume(queue)]);
}

const rate = (s: Sample) => EVENTS / (s.ms / 1000);

function shapeFigures(shape: string, m: { floor: Sample; generator: Sample; queue: Sample }): BenchFigure[] {
  const bare = "bare async iterator (async generator)";
  return [
    // Time, so that the ratio reads "× time" as the target does.
    figure(`${shape}: event queue time`, m.queue.ms, "ms", bare, m.generator.ms, atMost(TARGET_RATIO)),
    figure(`${shape}: event queue`, rate(m.queue), "events/s", bare, rate(m.generator)),
    figure(
      `${shape}: event queue vs floor`,
      rate(m.queue),
      "events/s",
      "array iterator, no hand-over",
      rate(m.floor),
    ),
    figure(
      `${shape}: event queue allocation`,
      m.queue.allocatedBytes / EVENTS,
      "B/event",
      bare,
      m.generator.allocatedBytes / EVENTS,
    ),
  ];
}

export const eventQueueBench: Benchmark = {
  name: "event-queue",
  description: `EventQueue vs a bare async iterator and the array floor, same ${EVENTS} AgentEvents`,
  async run() {
    const events = buildEvents(EVENTS);
    const floor = () => consume(arrayIterator(events));
    const burst = await measureVariants({
      floor,
      generator: () => consume(generatorBurst(events)),
      queue: () => queueBurst(events),
    });
    const live = await measureVariants({
      floor,
      generator: () => consume(generatorLive(events)),
      queue: () => queueLive(events),
    });
    if (sink === 0) throw new Error("benchmark work was optimised away");
    return {
      figures: [...shapeFigures("burst", burst), ...shapeFigures("live hand-off", live)],
    };
  },
};
