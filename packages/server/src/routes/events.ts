// GET /api/companies/{id}/events: the company's AgentEvents and domain events as Server-Sent
// Events — replayed from the store after `Last-Event-ID` (or ?after=), then live — so that a client
// reconnecting with the last id it saw receives every later event exactly once.
import { UserInputError } from "@cadre/core";
import { streamSSE } from "hono/streaming";
import { FEED_FILTERS, feedPredicate } from "../feed/filter.js";
import { followFeedPages } from "../feed/follow.js";
import { ssePage } from "../feed/sse.js";
import { route } from "./define.js";
import { enumQuery, idQuery } from "./queries.js";
import { companyScope } from "./scopes.js";

export const eventRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/events",
    summary:
      "Live company events (SSE): agent_event (an AgentEvent of a run) and domain_event (hire, approval filed/decided, mode change, …). Resumable with Last-Event-ID.",
    access: "company",
    scope: companyScope,
    query: {
      after: "feed id to resume after (when the Last-Event-ID header cannot be set)",
      run: "only this run's rows: its agent events and the domain events it caused",
      kind: `${FEED_FILTERS.join(" | ")} (lifecycle: domain events and each run's first and terminal agent event)`,
    },
    produces: "sse",
    response: {
      status: 200,
      description:
        "text/event-stream: frames with id (the feed id), event (agent_event | domain_event) and one JSON data line (FeedMessage).",
      schema: undefined,
    },
    handle({ c, ctx, scope, principal }) {
      const header = c.req.header("last-event-id");
      if (header !== undefined && !/^\d{1,15}$/.test(header))
        throw new UserInputError("Last-Event-ID must be an event id this stream sent (a whole number)", {
          "Last-Event-ID": "a whole number",
        });
      const afterId = header !== undefined ? Number(header) : idQuery("after", c.req.query("after"));
      const runId = c.req.query("run");
      if (runId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(runId))
        throw new UserInputError("run must be a run id", { run: "a run id" });
      const kind = enumQuery("kind", c.req.query("kind"), FEED_FILTERS);
      const keep = feedPredicate({
        ...(runId !== undefined ? { runId } : {}),
        ...(kind !== undefined ? { kind } : {}),
      });
      return streamSSE(c, async (stream) => {
        const closed = new AbortController();
        stream.onAbort(() => closed.abort());
        // An agent's stream ends the moment its key is revoked or its agent removed (in this server),
        // and is checked before each page for revocations made elsewhere.
        let revoked: string | undefined;
        const agent = principal.kind === "agent" ? principal : undefined;
        const forget = agent
          ? ctx.streams.register(agent, (reason) => {
              revoked = reason;
              closed.abort();
            })
          : () => {};
        const signal = AbortSignal.any([closed.signal, ctx.shutdown]);
        const gone = "the credentials of this stream are no longer valid (key revoked or agent removed)";
        // The heartbeat checks the credential too: an idle stream whose key another process revoked
        // ends within one beat, not only at the next event.
        const heartbeat = setInterval(() => {
          void stream.write(": keep-alive\n\n");
          if (agent)
            void ctx.auth
              .stillValid(agent)
              .then((ok) => {
                if (ok || revoked !== undefined) return;
                revoked = gone;
                closed.abort();
              })
              .catch(() => undefined);
        }, ctx.limits.sseHeartbeatMs);
        try {
          await stream.write(`retry: 1000\n\n`);
          for await (const item of followFeedPages({
            reader: ctx.feed,
            bus: ctx.bus,
            companyId: scope.companyId,
            afterId,
            signal,
            pollMs: ctx.limits.ssePollMs,
          })) {
            if (item.kind === "failure") {
              // The stream ends; the client reconnects with its Last-Event-ID and loses nothing.
              await stream.write(
                `event: stream_error\ndata: ${JSON.stringify({ message: item.message })}\n\n`,
              );
              break;
            }
            const rows = keep ? item.rows.filter(keep) : item.rows;
            if (rows.length === 0) continue;
            if (signal.aborted) break;
            if (agent && !(await ctx.auth.stillValid(agent))) {
              revoked = gone;
              break;
            }
            if (signal.aborted) break;
            await stream.write(ssePage(rows));
          }
          if (revoked !== undefined)
            await stream.write(`event: stream_error\ndata: ${JSON.stringify({ message: revoked })}\n\n`);
        } finally {
          forget();
          clearInterval(heartbeat);
        }
      });
    },
  }),
];
