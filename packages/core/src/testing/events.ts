// Reading a session's event stream in tests: every harness test collects a turn's events and picks
// them by type, so these live once here (dependency-free, like the union they read).
import type { AgentEvent, ContextSnapshot } from "../types.js";

/** Every item of a stream, in order (an event stream never throws, so this always returns). */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

export const ofType = <T extends AgentEvent["type"]>(
  events: readonly AgentEvent[],
  type: T,
): Array<Extract<AgentEvent, { type: T }>> =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

/** The compaction start/end events, in order. */
export const compactions = (events: readonly AgentEvent[]): AgentEvent[] =>
  events.filter((e) => e.type === "compaction_start" || e.type === "compaction_end");

/** The context controller's snapshot at the end of the turn (the last `context` event). */
export const snapshotOf = (events: readonly AgentEvent[]): ContextSnapshot =>
  ofType(events, "context").at(-1)!.snapshot;
