// Runs a push-style translator over a chunked input stream and yields its AgentEvents.
// The one place where input is read: parse → translate synchronously into a buffer → yield.
// Nothing escapes as an exception (types.ts: failures become `error` events).
import type { AgentEvent } from "../types.js";
import { SseParser } from "./sse.js";
import { JsonlParser } from "./jsonl.js";
import { parseObject, type JsonObject } from "./json.js";
import { malformed, streamFailure } from "./errors.js";

/** Stdin-like input: byte chunks (split anywhere) or already-decoded text. */
export type ByteStream = AsyncIterable<Uint8Array | string>;

/** A translator over SSE events. Per-stream state lives in the object, never in module globals. */
export interface SseTranslator {
  /** Translates one event into `out`; returns false when the input is malformed and translation must stop. */
  event(eventType: string, data: string, line: number, out: AgentEvent[]): boolean;
  /** Input ended; `cut` describes an abnormal end already known to the parser. Emits what closes the stream. */
  end(out: AgentEvent[], cut: string | undefined): void;
}

/**
 * The `data` of an SSE event that must be a JSON object with a string `type` (Anthropic, OpenAI
 * Responses); undefined after pushing the malformed_input error that stops the translation.
 */
export function parseTypedEvent(data: string, line: number, out: AgentEvent[]): JsonObject | undefined {
  const ev = parseObject(data);
  if (ev !== undefined && typeof ev.type === "string") return ev;
  out.push(malformed(line, 'a JSON object with a "type" field after "data:"', data));
  return undefined;
}

/** A translator over JSONL records. */
export interface RecordTranslator {
  record(record: JsonObject, line: number, out: AgentEvent[]): void;
  end(out: AgentEvent[], cut: string | undefined): void;
}

export async function* runSse(input: ByteStream, translator: SseTranslator): AsyncGenerator<AgentEvent> {
  const out: AgentEvent[] = [];
  let stopped = false;
  const parser = new SseParser((eventType, data, line) => {
    if (!stopped && !translator.event(eventType, data, line, out)) stopped = true;
  });
  try {
    for await (const chunk of input) {
      parser.push(chunk);
      // Inline loops, not yield* over a helper: yield* of a sync iterable adds a promise per event.
      for (let i = 0; i < out.length; i++) yield out[i]!;
      out.length = 0;
      if (stopped) return;
    }
    const cutAt = parser.end();
    translator.end(
      out,
      cutAt > 0
        ? `line ${cutAt}: the last event was not closed by a blank line and was discarded`
        : undefined,
    );
  } catch (err) {
    out.push(streamFailure(err));
  }
  for (let i = 0; i < out.length; i++) yield out[i]!;
}

export async function* runJsonl(input: ByteStream, translator: RecordTranslator): AsyncGenerator<AgentEvent> {
  const out: AgentEvent[] = [];
  let cut: string | undefined;
  const parser = new JsonlParser(
    (record, line) => translator.record(record, line, out),
    (line, text, last) => {
      if (last)
        cut = `line ${line}: the stream was cut inside a line (${text.length} characters, not a complete JSON object)`;
      else out.push(malformed(line, "one JSON object per line", text));
    },
  );
  try {
    for await (const chunk of input) {
      parser.push(chunk);
      for (let i = 0; i < out.length; i++) yield out[i]!;
      out.length = 0;
      if (parser.stopped) return;
    }
    parser.end();
    translator.end(out, cut);
  } catch (err) {
    out.push(streamFailure(err));
  }
  for (let i = 0; i < out.length; i++) yield out[i]!;
}
