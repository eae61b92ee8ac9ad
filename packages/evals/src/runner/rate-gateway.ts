// The eval run's rate gateway (concurrency adapts to 429s). A loopback HTTP forwarder
// between every harness of a live eval and the model server — pi-ai's SDK clients, Claude Code
// (ANTHROPIC_BASE_URL) and Codex (its provider base URL) alike — because only at the HTTP edge is a
// 429's `retry-after` header seen for every connector kind. A 429 from upstream is not passed on:
// the gateway halves how many model requests it lets through at once, holds every new request
// until the retry-after (or an exponential back-off when there is none) has passed, then retries
// the refused request first; at most `maxRetries` times, after which the 429 goes to the client
// with `x-should-retry: false` (the SDKs then do not retry it again). Successes raise the limit
// back by one per `limit` successes. Nothing is stored; secrets pass through, never logged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { announcesStandin } from "@cadre/standin";

export interface RateGatewayOptions {
  /** Where requests go: the path after the gateway's URL is appended to this (e.g. http://127.0.0.1:8080/v1). */
  upstream: string;
  /** Model requests in flight at once, at most (and at the start). */
  concurrency: number;
  /** Retries of one request after a 429 (default 4). */
  maxRetries?: number;
  /** Back-off of the first retry when the 429 carries no retry-after (default 1000 ms; doubles). */
  backoffMs?: number;
  /** Longest wait the gateway accepts from a retry-after (default 60 s; longer: the 429 goes to the client). */
  maxRetryAfterMs?: number;
}

export interface RateEvent {
  /** 1-based order of the upstream attempt among all of the gateway's attempts. */
  attempt: number;
  /** The request this attempt belongs to (1-based, in arrival order). */
  request: number;
  status: number;
  /** For a 429: the wait the gateway scheduled before the retry, and where it came from. */
  waitMs?: number;
  from?: "retry-after" | "back-off";
  /** The concurrency limit after this attempt. */
  limit: number;
  /** A 429 passed on to the client (retries exhausted, or a retry-after too long). */
  gaveUp?: boolean;
}

/** The gateway's decisions in the order it made them: each send upstream, and each 429 it received. */
export interface RateStep {
  step: "send" | "429";
  request: number;
  /** For a 429: the wait scheduled before its retry, and where it came from. */
  waitMs?: number;
  from?: "retry-after" | "back-off";
}

export interface RateStats {
  requests: number;
  attempts: number;
  rateLimited: number;
  retries: number;
  gaveUp: number;
  initialLimit: number;
  lowestLimit: number;
  limit: number;
}

export interface RateGateway {
  /** The URL harnesses are given in place of the upstream's. */
  url: string;
  upstream: string;
  stats(): RateStats;
  /** Every upstream attempt in order (the tests read retries and waits from it). */
  readonly events: readonly RateEvent[];
  /** Sends and 429s in the order they happened. */
  readonly timeline: readonly RateStep[];
  /**
   * Why the model server is a stand-in, once any response said so (its header: see @cadre/standin's
   * announcesStandin); null while none has. A stand-in's answers are scripted: they never measure behaviour.
   */
  standin(): string | null;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "accept-encoding",
]);

/** The retry-after of a response, in ms: seconds (fractions allowed) or an HTTP date; undefined when absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const raw = headers.get("retry-after");
  if (raw === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startRateGateway(options: RateGatewayOptions): Promise<RateGateway> {
  const upstream = options.upstream.replace(/\/+$/, "");
  const maxRetries = options.maxRetries ?? 4;
  const backoffMs = options.backoffMs ?? 1000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const initialLimit = Math.max(1, options.concurrency);
  let limit = initialLimit;
  let lowestLimit = limit;
  let inFlight = 0;
  let successes = 0;
  let pausedUntil = 0;
  let requests = 0;
  const events: RateEvent[] = [];
  const timeline: RateStep[] = [];
  let standin: string | null = null;
  // Retries go first: they were admitted before anything waiting now.
  const waiting: Array<{ retry: boolean; go: () => void }> = [];
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    const now = Date.now();
    if (now < pausedUntil) {
      if (!timer)
        timer = setTimeout(() => {
          timer = undefined;
          pump();
        }, pausedUntil - now);
      return;
    }
    waiting.sort((a, b) => Number(b.retry) - Number(a.retry));
    while (inFlight < limit && waiting.length > 0) {
      inFlight++;
      waiting.shift()?.go();
    }
  };
  const admit = (retry: boolean) =>
    new Promise<void>((go) => {
      waiting.push({ retry, go });
      pump();
    });
  const release = () => {
    inFlight--;
    pump();
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const number = ++requests;
    const body = await readBody(req);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const method = req.method ?? "GET";
    const target = `${upstream}${req.url ?? "/"}`;
    for (let tries = 0; ; tries++) {
      await admit(tries > 0);
      timeline.push({ step: "send", request: number });
      let response: Response;
      try {
        response = await fetch(target, {
          method,
          headers,
          ...(method === "GET" || method === "HEAD" ? {} : { body }),
          signal: abort.signal,
          redirect: "manual",
        });
      } catch (error) {
        release();
        if (!res.headersSent) {
          res.writeHead(502, { "content-type": "text/plain", "x-should-retry": "false" });
          res.end(`cadre eval rate gateway: ${upstream} did not answer (${(error as Error).message})`);
        }
        return;
      }
      const event: RateEvent = {
        attempt: events.length + 1,
        request: number,
        status: response.status,
        limit,
      };
      events.push(event);
      standin ??= announcesStandin({ headers: response.headers });
      if (response.status === 429) {
        const after = retryAfterMs(response.headers);
        const wait = after ?? backoffMs * 2 ** tries;
        timeline.push({
          step: "429",
          request: number,
          waitMs: wait,
          from: after === undefined ? "back-off" : "retry-after",
        });
        limit = Math.max(1, Math.floor(limit / 2));
        lowestLimit = Math.min(lowestLimit, limit);
        successes = 0;
        Object.assign(event, { waitMs: wait, from: after === undefined ? "back-off" : "retry-after", limit });
        if (tries < maxRetries && wait <= maxRetryAfterMs) {
          await response.body?.cancel();
          pausedUntil = Math.max(pausedUntil, Date.now() + wait);
          release();
          continue;
        }
        event.gaveUp = true;
      } else if (response.status < 400 && ++successes >= limit && limit < initialLimit) {
        limit++;
        successes = 0;
      }
      const out: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        // fetch decoded the body: its length and encoding no longer apply.
        if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(k))
          out[k] = v;
      });
      if (event.gaveUp) out["x-should-retry"] = "false";
      res.writeHead(response.status, out);
      try {
        if (response.body) {
          const stream = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
          stream.on("error", () => res.destroy());
          await new Promise<void>((done) => {
            stream.pipe(res);
            res.on("close", done);
            stream.on("error", () => done());
          });
        } else res.end();
      } finally {
        release();
      }
      return;
    }
  };

  const server: Server = createServer((req, res) => {
    forward(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain", "x-should-retry": "false" });
        res.end(`cadre eval rate gateway failed: ${(error as Error).message}`);
      } else res.destroy();
    });
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server.address() as AddressInfo));
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    upstream,
    events,
    timeline,
    standin: () => standin,
    stats: () => ({
      requests,
      attempts: events.length,
      rateLimited: events.filter((e) => e.status === 429).length,
      retries: events.filter((e) => e.status === 429 && !e.gaveUp).length,
      gaveUp: events.filter((e) => e.gaveUp).length,
      initialLimit,
      lowestLimit,
      limit,
    }),
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (timer) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
