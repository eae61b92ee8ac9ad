// Translator throughput (MC-4/MC-7 measurement) on a large stream built by repeating the
// complete fixtures, against the floor (decode + split + JSON.parse of the same data lines)
// and against the vendor SDKs' own accumulators, all in this process. Not on the hot path.
import { performance } from "node:perf_hooks";
import { chunked, readFixtures, type Fixture } from "../testing/translator-fixtures.js";
import { TRANSLATOR_FORMATS, TRANSLATORS, type TranslatorFormat } from "../translators/registry.js";

export interface BenchResult {
  format: TranslatorFormat;
  mbPerSec: number;
  eventsPerSec: number;
  /** Translator time ÷ time to decode, split and JSON.parse the same data lines (the floor; lower is better). */
  ratioVsJsonParse: number;
  /** Translator time ÷ the vendor SDK accumulator's time on the same fixtures (< 1: faster than the SDK). */
  ratioVsSdk?: number;
}

type Run = (bytes: Uint8Array) => Promise<unknown>;

const TARGET_BYTES = 8 << 20;
const SDK_TARGET_BYTES = 1 << 20;
const CHUNK = 64 << 10; // a typical pipe read
/** A cut or failed fixture would end a concatenated stream early: only complete ones are repeated. */
const isComplete = (f: Fixture) => !/truncat|error|fail/.test(f.name);

export async function benchTranslators(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const format of TRANSLATOR_FORMATS) {
    const fixtures = (await readFixtures(format)).filter(isComplete);
    const unit = concat(fixtures.map((f) => f.bytes));
    const big = concat(new Array<Uint8Array>(Math.ceil(TARGET_BYTES / unit.length)).fill(unit));
    const ours: Run = (bytes) => countEvents(format, bytes);
    await ours(unit); // warm-up
    let events = 0;
    const translateMs = await time(async () => void (events = await countEvents(format, big)));
    parseDataLines(unit);
    const parseMs = await time(async () => parseDataLines(big));
    const seconds = translateMs / 1000;
    const result: BenchResult = {
      format,
      mbPerSec: big.length / 1e6 / seconds,
      eventsPerSec: events / seconds,
      ratioVsJsonParse: translateMs / parseMs,
    };
    const sdk = await sdkRun(format);
    if (sdk !== undefined) {
      const reps = Math.ceil(SDK_TARGET_BYTES / unit.length);
      await perFixture(sdk, fixtures, 1); // warm-up
      result.ratioVsSdk =
        (await time(() => perFixture(ours, fixtures, reps))) /
        (await time(() => perFixture(sdk, fixtures, reps)));
    }
    results.push(result);
  }
  return results;
}

async function countEvents(format: TranslatorFormat, bytes: Uint8Array): Promise<number> {
  let n = 0;
  for await (const _event of TRANSLATORS[format](chunked(bytes, CHUNK))) n++;
  return n;
}

function parseDataLines(bytes: Uint8Array): void {
  for (const line of new TextDecoder().decode(bytes).split("\n")) {
    const json = line.startsWith("data: ") ? line.slice(6) : line.startsWith("{") ? line : "";
    if (json === "" || json.startsWith("[DONE]")) continue;
    try {
      JSON.parse(json);
    } catch {
      // a data field split over two lines: not a whole JSON value on its own
    }
  }
}

/** The SDK's streaming helper over a fetch that answers with the fixture bytes; undefined without the SDK. */
async function sdkRun(format: TranslatorFormat): Promise<Run | undefined> {
  let current: Uint8Array = new Uint8Array();
  const fetch = async () => new Response(current, { headers: { "content-type": "text/event-stream" } });
  const messages = [{ role: "user" as const, content: "bench" }];
  try {
    if (format === "anthropic-sse") {
      const client = new (await import("@anthropic-ai/sdk")).default({
        apiKey: "bench",
        maxRetries: 0,
        fetch,
      });
      return (bytes) => (
        (current = bytes),
        client.messages
          .stream({ model: "bench", max_tokens: 1, messages })
          .finalMessage()
          .catch(() => undefined)
      );
    }
    if (format === "openai-chat-sse" || format === "openai-responses-sse") {
      const client = new (await import("openai")).default({ apiKey: "bench", maxRetries: 0, fetch });
      if (format === "openai-chat-sse")
        return (bytes) => (
          (current = bytes),
          client.chat.completions
            .stream({ model: "bench", messages })
            .finalChatCompletion()
            .catch(() => undefined)
        );
      return (bytes) => (
        (current = bytes),
        client.responses
          .stream({ model: "bench", input: "bench" })
          .finalResponse()
          .catch(() => undefined)
      );
    }
  } catch {
    // SDKs are devDependencies: absent in a production install
  }
  return undefined;
}

async function perFixture(run: Run, fixtures: Fixture[], reps: number): Promise<void> {
  for (let r = 0; r < reps; r++) for (const f of fixtures) await run(f.bytes);
}

/** Best of three runs: the least disturbed by GC and other work on the machine. */
async function time(fn: () => Promise<void>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
