// Follows a company's event stream (GET /api/companies/{id}/events) for as long as the caller
// wants: it reads the SSE response with fetch (EventSource cannot send a bearer token), and when
// the connection drops or the server ends it, reconnects with `Last-Event-ID` set to the last event
// it delivered. The server resumes right after that id, and anything at or below it is dropped
// here too, so a reconnect neither loses nor repeats an event.
import { apiErrorOf } from "./client.js";
import { SseParser } from "./sse-parser.js";
import type { FeedMessage } from "./types.js";

export type StreamStatus = "connecting" | "live" | "reconnecting" | "closed";

export interface FollowOptions {
  /** e.g. /api/companies/ID/events?kind=domain_event */
  path: string;
  token: string;
  /** Resume after this event id (exclusive); default: from the beginning. */
  after?: number;
  /** Called once per received chunk with its complete, new events, in order. */
  onMessages(messages: FeedMessage[]): void;
  onStatus?(status: StreamStatus, detail?: string): void;
  /** The server refused the token (401): the stream stops. */
  onUnauthorized?(message: string): void;
  signal: AbortSignal;
  /** Wait before reconnecting, unless the server advised one (`retry:`). */
  retryMs?: number;
  fetch?: typeof fetch;
}

/**
 * Longest stretch of parsing before the page gets the thread back: a replay arrives in chunks of
 * hundreds of events, and handling one whole would block rendering and input for too long.
 */
const SLICE_MS = 8;
/** A chunk is parsed this many characters at a time, so that a slice can end inside a big chunk. */
const PARSE_CHARS = 16_384;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });

/** Resolves when `signal` aborts or the token is refused. */
export async function followEvents(options: FollowOptions): Promise<void> {
  const { signal } = options;
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  let last = options.after;
  let retryMs = options.retryMs ?? 1000;
  let attempt = 0;
  while (!signal.aborted) {
    if (attempt++ === 0) options.onStatus?.("connecting");
    let detail = "the stream ended";
    try {
      const headers: Record<string, string> = {
        authorization: `Bearer ${options.token}`,
        accept: "text/event-stream",
      };
      if (last !== undefined) headers["last-event-id"] = String(last);
      const response = await fetcher(options.path, { headers, signal, cache: "no-store" });
      if (response.status === 401) {
        options.onUnauthorized?.(await errorMessage(response, options.path));
        break;
      }
      if (!response.ok || !response.body) {
        detail = `HTTP ${response.status}: ${await errorMessage(response, options.path)}`;
      } else {
        options.onStatus?.("live");
        const parser = new SseParser();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // Parsed piece by piece, each piece's events handed over at once; the page gets the
          // thread back whenever a slice has run long enough.
          let failed: string | undefined;
          let sliceStart = performance.now();
          for (let at = 0; at < value.length && !signal.aborted; at += PARSE_CHARS) {
            const fresh: FeedMessage[] = [];
            for (const frame of parser.push(value.slice(at, at + PARSE_CHARS))) {
              if (frame.event === "stream_error") failed = frame.data;
              if (frame.event !== "agent_event" && frame.event !== "domain_event") continue;
              const id = Number(frame.id);
              if (!Number.isSafeInteger(id) || (last !== undefined && id <= last)) continue;
              fresh.push(JSON.parse(frame.data) as FeedMessage);
              last = id;
            }
            if (fresh.length > 0) options.onMessages(fresh);
            if (performance.now() - sliceStart > SLICE_MS) {
              await yieldToPage();
              sliceStart = performance.now();
            }
          }
          if (parser.retryMs !== undefined) retryMs = parser.retryMs;
          if (failed !== undefined) {
            detail = `the server's stream failed: ${failed}`;
            await reader.cancel();
            break;
          }
        }
      }
    } catch (error) {
      if (signal.aborted) break;
      detail = error instanceof Error ? error.message : String(error);
    }
    if (signal.aborted) break;
    options.onStatus?.("reconnecting", detail);
    await sleep(retryMs, signal);
  }
  options.onStatus?.("closed");
}

/** The API's message from its error envelope (the one client's reading of it). */
async function errorMessage(response: Response, path: string): Promise<string> {
  return (await apiErrorOf(response, `GET ${path}`)).message;
}
