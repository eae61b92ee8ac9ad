// The volatile-content check with record values: a match inside a value copied from a record does
// not count, one outside does; it answers as the blank-out-each-value check did (its reference
// here), at a cost that does not grow with values × text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findVolatileContent } from "./volatile.js";

/** The earlier, quadratic check: blank each value out of the text, then look. */
function reference(text: string, values: readonly string[]): string | undefined {
  let checked = text;
  for (const v of values) if (v.length > 0) checked = checked.split(v).join(" ");
  return findVolatileContent(checked);
}

const word = fc.stringMatching(/^[A-Za-z]{1,10}$/);
const volatile = fc.constantFrom(
  "2026-03-01 09:00",
  "12:30:45",
  "Tue, 3 Mar 2026",
  "123e4567-e89b-12d3-a456-426614174000",
  "1764633600000",
  "3 minutes ago",
  "run_3f9a0c1d2e4b5a6f",
);
const value = fc
  .tuple(fc.array(word, { maxLength: 4 }), fc.option(volatile), fc.array(word, { maxLength: 4 }))
  .map(([a, v, b]) => [...a, ...(v === null ? [] : [v]), ...b].join(" "));

describe("findVolatileContent with record values", () => {
  it("answers as blanking each value out would, on texts made of values, prose and volatile tokens", () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 6 }),
        fc.array(fc.oneof(word, volatile, fc.nat({ max: 5 }).map(String)), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (values, loose, order) => {
          const parts = [...values, ...loose];
          const text = order.map((i) => parts[i % parts.length]).join("\n") + "\n" + values.join(" . ");
          expect(findVolatileContent(text, values) === undefined).toBe(reference(text, values) === undefined);
        },
      ),
    );
  });

  it("passes a directory of 2,000 dated descriptions, and still names a timestamp outside them", () => {
    const values = Array.from(
      { length: 2_000 },
      (_, i) => `Agent ${i} joined on 2026-01-02 10:${String(i % 60).padStart(2, "0")} to build`,
    );
    const directory = values.map((v, i) => `- agt${i}: ${v}`).join("\n");
    expect(findVolatileContent(directory, values)).toBeUndefined();
    expect(findVolatileContent(`${directory}\nGenerated at 2026-03-01 09:00`, values)).toBe(
      'a timestamp ("2026-03-01 09:00")',
    );
    // A value that appears only in part does not cover a match.
    expect(
      findVolatileContent("joined on 2026-01-02 10:00", ["Agent 0 joined on 2026-01-02 10:00"]),
    ).toBeDefined();
  });
});
