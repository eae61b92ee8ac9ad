import { type Static, Type } from "typebox";
import { describe, expect, it } from "vitest";
import { describeProblems, Nullable, OneOf, parse, SchemaVersion, Text } from "./schema.js";
import { nameKey } from "./text-policy.js";

const Hire = Type.Object(
  {
    name: Text({ maxLength: 5, description: "d" }),
    note: Type.Optional(Text({ maxLength: 20, multiline: true })),
    department: Type.Optional(OneOf(["a", "b"])),
    count: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
    tags: Type.Optional(Type.Array(Text({ maxLength: 4 }), { maxItems: 2 })),
    parent: Type.Optional(Nullable(Text({ maxLength: 4 }))),
  },
  { additionalProperties: false },
);

describe("parse", () => {
  it("returns the clean value, typed from the schema: texts NFC-normalised and trimmed, null optional fields left out", () => {
    const result = parse(Hire, { name: "  Cafe\u0301 ", department: null, note: "a\nb\tc", tags: ["x"] });
    expect(result).toEqual({ ok: true, value: { name: "Café", note: "a\nb\tc", tags: ["x"] } });
    if (result.ok) {
      const value: Static<typeof Hire> = result.value;
      expect(value.name).toBe("Café");
    }
  });

  it("names every bad field, why and what is allowed", () => {
    const result = parse(Hire, { name: 42, department: "c", count: 4, extra: 1, tags: ["ok", "toolong"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual({
      extra: "unknown field; allowed fields: name, note, department, count, tags, parent",
      name: "must be a string, got a number",
      department: 'must be one of: a, b (got "c")',
      count: "must be from 0 to 3, got 4",
      "tags[1]": "is too long (7 characters; at most 4)",
    });
    expect(describeProblems(result.problems)).toMatch(/^`extra` unknown field; .*; `name` must be a string/);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(parse(Hire, { name: "😀😀😀😀😀" }).ok).toBe(true);
    expect(parse(Hire, { name: "😀😀😀😀😀😀" })).toMatchObject({
      ok: false,
      problems: { name: "is too long (6 characters; at most 5)" },
    });
  });

  it("refuses a __proto__ key as the unknown field it is (own keys of a JSON.parse result)", () => {
    const raw = JSON.parse('{"name":"CTO","__proto__":{"isCeo":true}}');
    const result = parse(Hire, raw);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(Object.entries(result.problems)).toEqual([
        ["__proto__", expect.stringMatching(/^unknown field/)],
      ]);
  });

  it("applies the text policy, naming the character as U+XXXX", () => {
    const lone = JSON.parse('{"name":"A\\ud800B"}');
    expect(parse(Hire, lone)).toMatchObject({
      ok: false,
      problems: { name: expect.stringMatching(/^contains U\+D800, a lone surrogate/) },
    });
    for (const [text, cp] of [
      ["C\u200bTO", "U+200B (ZERO WIDTH SPACE)"],
      ["CT\u200cO", "U+200C (ZERO WIDTH NON-JOINER)"],
      ["CTO\u200e", "U+200E (LEFT-TO-RIGHT MARK)"],
      ["C\u061cTO", "U+061C (ARABIC LETTER MARK)"],
      ["C\u2060TO", "U+2060 (WORD JOINER)"],
      ["A\u202eB", "U+202E (RIGHT-TO-LEFT OVERRIDE)"],
      ["A\nB", "U+000A (LINE FEED)"],
      ["A\u2028B", "U+2028 (LINE SEPARATOR)"],
      ["A\u0085B", "U+0085 (NEXT LINE)"],
    ]) {
      const result = parse(Hire, { name: text });
      expect(result, text).toMatchObject({
        ok: false,
        problems: { name: expect.stringContaining(`contains ${cp}`) },
      });
    }
    // Free text keeps newlines, tabs and joiners (emoji sequences), never controls or overrides.
    expect(parse(Hire, { name: "x", note: "a\n👩\u200d💻" }).ok).toBe(true);
    expect(parse(Hire, { name: "x", note: "a\u202eb" }).ok).toBe(false);
    expect(parse(Hire, { name: "x", note: "a\u0007b" }).ok).toBe(false);
  });

  it("says which schema version a file must have", () => {
    const File = Type.Object({ schemaVersion: SchemaVersion(1) });
    expect(parse(File, { schemaVersion: 2 })).toMatchObject({
      ok: false,
      problems: { schemaVersion: "is 2; this build reads version 1" },
    });
  });

  it("refuses what the JSON Schema refuses even where the parser has no word for it", () => {
    const Odd = Type.Object({ n: Type.Number({ multipleOf: 2 }) });
    expect(parse(Odd, { n: 3 })).toMatchObject({
      ok: false,
      problems: { n: expect.stringMatching(/does not match its schema/) },
    });
  });
});

describe("nameKey", () => {
  it("folds case, compatibility forms, invisible characters and white space", () => {
    const key = nameKey("CTO");
    for (const look of [
      "cto",
      "C\u200bTO",
      "CT\u200cO",
      "CTO\u200e",
      "C\u061cTO",
      "C\u2060TO",
      "ＣＴＯ",
      "\ufeffCTO",
    ])
      expect(nameKey(look), look).toBe(key);
    expect(nameKey("Head  of\u00a0Sales")).toBe(nameKey("head of sales"));
    expect(nameKey("CFO")).not.toBe(key);
  });
});
