// Building blocks of the entity schemas: ids and times as the API documents them, and the closed
// object every entity and view is (an unknown field is refused by the response check).
import { type TObject, type TProperties, Type } from "typebox";

/** An id (any string; the store makes them). */
export const Id = (description?: string) => Type.String(description ? { description } : {});

/** A time as the store keeps it. */
export const Time = (description = "ISO-8601 time, UTC.") => Type.String({ description });

/** A closed object: only the fields named. */
export const Closed = <P extends TProperties>(properties: P, description?: string): TObject<P> =>
  Type.Object(properties, {
    additionalProperties: false,
    ...(description !== undefined ? { description } : {}),
  });
