import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { project } from "./project.js";

const View = Type.Object(
  {
    id: Type.String(),
    creator: Type.String(),
    missing: Type.Optional(Type.String()),
    createdAt: Type.String(),
  },
  { additionalProperties: false },
);

describe("project: a view from its record", () => {
  const record = {
    id: "t1",
    creatorAgentId: null,
    secret: "kept out",
    createdAt: "2026-01-01T00:00:00.000Z",
  };

  it("takes the shared fields, the derived ones, and nothing the view does not name", () => {
    const view = project(View, record, { creator: record.creatorAgentId ?? "operator" });
    expect(view).toEqual({ id: "t1", creator: "operator", createdAt: "2026-01-01T00:00:00.000Z" });
    expect(Object.keys(view)).toEqual(["id", "creator", "createdAt"]);
  });

  it("leaves an optional field out when its value is undefined, and lets a derived value replace the record's", () => {
    const view = project(View, record, { creator: "ceo", missing: undefined, id: "T1" });
    expect(view).toEqual({ id: "T1", creator: "ceo", createdAt: "2026-01-01T00:00:00.000Z" });
    expect("missing" in view).toBe(false);
    expect(project(View, record, { creator: "ceo", missing: "why" }).missing).toBe("why");
  });

  it("is checked by the compiler: a field of another type, or one the record lacks and the view does not derive, does not build", () => {
    // @ts-expect-error the record's id is not the view's type
    expect(() => project(View, { ...record, id: 1 }, { creator: "ceo" })).not.toThrow();
    // @ts-expect-error creator is neither in the record nor derived
    expect(project(View, record, {}).creator).toBeUndefined();
    // A derived field may replace a shared one of another type.
    expect(project(View, { ...record, id: 1 }, { creator: "ceo", id: "1" }).id).toBe("1");
  });
});
