// The domain events: what happened in a company, one member per activity type with the schema of
// its data. The store writes only these (insertActivity checks each one), the feed carries them to
// live clients as `domain_event` frames, and the dashboard switches over them exhaustively. A new
// event type is one entry in the table of its area.
import { type Static, type TObject, type TProperties, type TSchema, Type } from "typebox";
import { describeProblems, parse } from "../schema.js";
import { COMPANY_EVENTS } from "./company.js";
import { RUN_EVENTS } from "./runs.js";
import { TEAM_EVENTS } from "./team.js";
import { WAKE_EVENTS } from "./wakes.js";
import { WORK_EVENTS } from "./work.js";

/** Activity type → the schema of its data. */
export const DOMAIN_EVENT_DATA = {
  ...COMPANY_EVENTS,
  ...TEAM_EVENTS,
  ...WORK_EVENTS,
  ...WAKE_EVENTS,
  ...RUN_EVENTS,
};

type DataSchemas = typeof DOMAIN_EVENT_DATA;
export type DomainEventType = keyof DataSchemas;

export const DOMAIN_EVENT_TYPES = Object.keys(DOMAIN_EVENT_DATA) as [DomainEventType, ...DomainEventType[]];

/** One domain event: its type and its data, typed together (switch on `type` to read `data`). */
export type DomainEvent = {
  [T in DomainEventType]: { type: T; data: Static<DataSchemas[T]> };
}[DomainEventType];

export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
export type DomainEventData<T extends DomainEventType> = DomainEventOf<T>["data"];

/**
 * The union as a schema, each member an object of `extra` (the fields a carrier adds, e.g. a feed
 * frame's id) plus `type` and `data`: for documents (OpenAPI) and checks of whole frames.
 */
export function domainEventSchema<P extends TProperties = Record<never, TSchema>>(extra: P = {} as P) {
  const union = Type.Union(
    DOMAIN_EVENT_TYPES.map((type) =>
      Type.Object(
        { ...extra, type: Type.Literal(type), data: DOMAIN_EVENT_DATA[type] as TSchema },
        { additionalProperties: false },
      ),
    ),
  );
  // The same schema (checks and documents read its JSON Schema), typed as the union it is: a
  // member's `type` narrows its `data`, which a mapped list of members cannot tell TypeScript.
  return Type.Unsafe<Static<TObject<P>> & DomainEvent>(union);
}

export function isDomainEventType(type: unknown): type is DomainEventType {
  return typeof type === "string" && Object.hasOwn(DOMAIN_EVENT_DATA, type);
}

/**
 * Why `event` is not a domain event (its type unknown, or its data not that type's), in words
 * naming the field and what is allowed; undefined when it is one.
 */
export function domainEventProblem(event: { type: unknown; data: unknown }): string | undefined {
  if (!isDomainEventType(event.type))
    return `"${String(event.type)}" is not a domain event type; the types are: ${DOMAIN_EVENT_TYPES.join(", ")}`;
  const parsed = parse(DOMAIN_EVENT_DATA[event.type] as TSchema, event.data);
  return parsed.ok
    ? undefined
    : `its data does not fit "${event.type}": ${describeProblems(prefixed(parsed.problems))}`;
}

function prefixed(problems: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(problems).map(([k, v]) => [k === "" ? "data" : `data.${k}`, v]));
}
