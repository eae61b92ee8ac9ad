// How a feed row travels as a Server-Sent Event. The SSE id is the feed id: one id space for agent
// events and domain events, strictly increasing in commit order, so `Last-Event-ID` alone says
// where a reconnecting client left off. A page of rows is encoded once and the same bytes are
// written to every subscriber that read that page (FeedReader shares one read among them).
import { type DomainEvent, domainEventSchema, Nullable, type Static } from "@cadre/model";
import type { FeedRow } from "@cadre/store";
import { Type } from "typebox";
import { scrubEventTexts } from "./scrub.js";

const AgentFrameSchema = Type.Object(
  {
    feedId: Type.Integer({ description: "Also the SSE id: one increasing sequence for both kinds." }),
    kind: Type.Literal("agent_event"),
    runId: Type.String(),
    seq: Type.Integer({ minimum: 0 }),
    at: Type.String(),
    event: Type.Unknown({ description: "The AgentEvent." }),
  },
  { additionalProperties: false },
);

/** A domain event's frame: one member per activity type (`type`), each with the schema of its `data`. */
const DomainFrameSchema = domainEventSchema({
  feedId: Type.Integer(),
  kind: Type.Literal("domain_event"),
  agentId: Nullable(Type.String()),
  runId: Nullable(Type.String()),
  at: Type.String(),
});

/** One frame's data: an AgentEvent of a run, or a domain event (hire, approval, mode change, …). */
export const FeedMessageSchema = Type.Union([AgentFrameSchema, DomainFrameSchema]);

/** A frame, typed: a domain event's `type` narrows its `data`. */
export type FeedMessage = Static<typeof FeedMessageSchema>;

export function feedMessage(row: FeedRow): FeedMessage {
  return row.kind === "agent_event"
    ? {
        feedId: row.id,
        kind: "agent_event",
        runId: row.event.runId,
        seq: row.event.seq,
        at: row.event.at,
        event: scrubEventTexts(row.event.type, row.event.data),
      }
    : {
        feedId: row.id,
        kind: "domain_event",
        agentId: row.activity.agentId,
        runId: row.activity.runId,
        at: row.activity.at,
        ...domainEventOf(row.activity),
      };
}

/** The event itself, and nothing else of its row. */
function domainEventOf({ type, data }: DomainEvent): DomainEvent {
  return { type, data } as DomainEvent;
}

/** The full SSE frame of a row: `id`, `event` (agent_event | domain_event) and one JSON `data` line. */
export function sseFrame(row: FeedRow): string {
  // JSON.stringify never emits a raw newline, so the data is one line.
  return `id: ${row.id}\nevent: ${row.kind}\ndata: ${JSON.stringify(feedMessage(row))}\n\n`;
}

const encoder = new TextEncoder();
const pages = new WeakMap<readonly FeedRow[], Uint8Array>();

/** The frames of a page, as bytes, encoded once per page. */
export function ssePage(rows: readonly FeedRow[]): Uint8Array {
  let bytes = pages.get(rows);
  if (bytes === undefined) {
    bytes = encoder.encode(rows.map(sseFrame).join(""));
    pages.set(rows, bytes);
  }
  return bytes;
}
