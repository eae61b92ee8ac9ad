// Following the event stream across connections: a dropped connection resumes with Last-Event-ID
// and the events come out exactly once; a refused token stops it. The server is a fake fetch that
// answers from a list of events, as the real one does (everything after the Last-Event-ID).
import { describe, expect, it } from "vitest";
import { followEvents, type StreamStatus } from "./event-stream.js";
import type { FeedMessage } from "./types.js";

const EVENTS: FeedMessage[] = Array.from({ length: 12 }, (_, i) => ({
  feedId: i + 1,
  kind: "domain_event",
  type: "run.stopped",
  agentId: null,
  runId: null,
  at: "",
  data: { reason: `stop ${i + 1}` },
}));
const frame = (m: FeedMessage) => `id: ${m.feedId}\nevent: ${m.kind}\ndata: ${JSON.stringify(m)}\n\n`;

interface Connection {
  lastEventId: string | null;
  authorization: string | null;
}

/** Each connection: the events after Last-Event-ID, then cut after `cutAfter` frames (mid-frame). */
function fakeServer(plan: Array<{ cutAfter?: number; resend?: number; status?: number }>) {
  const connections: Connection[] = [];
  const fetcher = async (_url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    connections.push({
      lastEventId: headers.get("last-event-id"),
      authorization: headers.get("authorization"),
    });
    const step = plan[connections.length - 1] ?? {};
    if (step.status)
      return new Response(
        JSON.stringify({ error: { code: "unauthorized", message: "the token is not valid" } }),
        { status: step.status },
      );
    const after = Number(headers.get("last-event-id") ?? 0) - (step.resend ?? 0);
    const rest = EVENTS.filter((e) => e.feedId > after);
    const shown = step.cutAfter === undefined ? rest : rest.slice(0, step.cutAfter);
    let text = "retry: 1\n\n" + shown.map(frame).join("");
    if (step.cutAfter !== undefined && rest[step.cutAfter]) text += frame(rest[step.cutAfter]!).slice(0, 25);
    // Odd-sized chunks, so frames are cut at arbitrary places; a cut connection fails once they are read.
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < bytes.length) {
          controller.enqueue(bytes.slice(at, (at += 37)));
        } else if (step.cutAfter !== undefined) controller.error(new Error("connection reset"));
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  return { connections, fetcher: fetcher as typeof fetch };
}

async function follow(server: ReturnType<typeof fakeServer>, until: (got: FeedMessage[]) => boolean) {
  const got: FeedMessage[] = [];
  const statuses: StreamStatus[] = [];
  const stop = new AbortController();
  let refused: string | undefined;
  const done = followEvents({
    path: "/api/companies/c/events",
    token: "tok",
    fetch: server.fetcher,
    signal: stop.signal,
    onStatus: (s) => statuses.push(s),
    onUnauthorized: (m) => (refused = m),
    onMessages: (ms) => {
      got.push(...ms);
      if (until(got)) stop.abort();
    },
  });
  await done;
  return { got, statuses, refused };
}

describe("followEvents", () => {
  it("resumes after the last whole event on every reconnect: nothing lost, nothing repeated", async () => {
    const server = fakeServer([{ cutAfter: 3 }, { cutAfter: 4, resend: 2 }, { resend: 5 }]);
    const { got, statuses } = await follow(server, (g) => g.length >= EVENTS.length);
    expect(got.map((m) => m.feedId)).toEqual(EVENTS.map((m) => m.feedId));
    // The second connection re-sent 2 and 3 (dropped) before 4 and 5; the third re-sent 1–5.
    expect(server.connections.map((c) => c.lastEventId)).toEqual([null, "3", "5"]);
    expect(server.connections.every((c) => c.authorization === "Bearer tok")).toBe(true);
    expect(statuses.filter((s) => s === "reconnecting")).toHaveLength(2);
  });

  it("starts after a given id when asked", async () => {
    const server = fakeServer([{}]);
    const stop = new AbortController();
    const got: number[] = [];
    await followEvents({
      path: "/x",
      token: "t",
      after: 10,
      fetch: server.fetcher,
      signal: stop.signal,
      onMessages: (ms) => (got.push(...ms.map((m) => m.feedId)), got.length === 2 && stop.abort()),
    });
    expect(server.connections[0]!.lastEventId).toBe("10");
    expect(got).toEqual([11, 12]);
  });

  it("stops, saying why, when the server refuses the token", async () => {
    const server = fakeServer([{ status: 401 }]);
    const { got, refused, statuses } = await follow(server, () => false);
    expect(got).toEqual([]);
    expect(refused).toBe("the token is not valid");
    expect(server.connections).toHaveLength(1);
    expect(statuses.at(-1)).toBe("closed");
  });
});
