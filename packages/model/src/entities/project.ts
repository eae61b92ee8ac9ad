// A view built from its entity: every field the view's schema names is taken from the record under
// the same name, unless the view derives it (`derived`), so a view mapper spells only what differs
// from the record. A field absent from the record and not derived is a type error; an optional
// field whose value is undefined is left out, as the JSON answer leaves it out.
import type { Static, TObject } from "typebox";

/** What a view must derive: its fields the record lacks; those it shares may be derived too. */
export type Derived<V, R> = Omit<V, keyof R> & Partial<Pick<V, keyof R & keyof V>>;

/** The record's fields the view shares (and does not derive), each of the view's type. */
type Shared<V, R> = { [K in keyof R & keyof V]: V[K] };

export function project<S extends TObject, R extends object, D extends Derived<Static<S>, R>>(
  schema: S,
  record: R & Shared<Static<S>, Omit<R, keyof D>>,
  derived: D,
): Static<S> {
  const view: Record<string, unknown> = {};
  const from = derived as Record<string, unknown>;
  const source = record as Record<string, unknown>;
  for (const key of Object.keys(schema.properties)) {
    const value = key in from ? from[key] : source[key];
    if (value !== undefined) view[key] = value;
  }
  return view as Static<S>;
}
