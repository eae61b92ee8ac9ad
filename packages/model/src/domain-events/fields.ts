// Building blocks of the domain events' data schemas: every event's data is a closed object (an
// unknown field is refused, so a writer's typo cannot pass as a new field).
import { type TProperties, Type } from "typebox";

/** A closed object: only the fields named. */
export const Data = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

/** An id or a short name: any non-empty string (the writers check ids against the store). */
export const Id = Type.String({ minLength: 1 });
/** Who did it: an agent id, "operator" or "system". */
export const Actor = Type.String({ minLength: 1, description: "An agent id, operator or system." });
/** Free words for a person (a reason, a note, a message). */
export const Words = Type.String();
