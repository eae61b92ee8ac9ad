import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildHandoff, type TranscriptItem } from "./handoff.js";
import { truncateUtf8, utf8Length } from "./utf8-bytes.js";

const SECRET = "SECRET-TOOL-OUTPUT-BODY";

const transcript: TranscriptItem[] = [
  { kind: "task", text: "Build the hiring plan for the\n  new company" },
  { kind: "user", text: "turn 1: start" },
  { kind: "assistant", text: "looking at connectors" },
  { kind: "tool_call", name: "list_connectors" },
  { kind: "tool_result", name: "list_connectors", isError: false, body: `${SECRET} connectors…` },
  { kind: "decision", text: "Hire a CTO first" },
  { kind: "open-work", id: "w1", text: "File the strategy", status: "open" },
  { kind: "open-work", id: "w2", text: "Hire a designer", status: "open" },
  { kind: "user", text: "turn 2: continue" },
  { kind: "tool_result", name: "hire_agent", isError: true, body: `${SECRET} stack trace` },
  { kind: "open-work", id: "w2", text: "Hire a designer", status: "done" },
  { kind: "decision", text: "Use the offline connector" },
  { kind: "user", text: "turn 3: status?" },
  { kind: "assistant", text: "two hires done" },
];

describe("MC-9 handoff document", () => {
  const doc = buildHandoff(transcript);

  it.each([
    ["MC-9 handoff carries the task (one line)", "Build the hiring plan for the new company"],
    ["MC-9 handoff carries decisions", "- Hire a CTO first\n- Use the offline connector"],
    ["MC-9 handoff carries open work", "- File the strategy"],
    ["MC-9 handoff carries the recent turns' gist", "- user: turn 3: status?\n- assistant: two hires done"],
    ["MC-9 handoff names tool outcomes without bodies", "- tool hire_agent → error"],
  ])("%s", (_name, expected) => {
    expect(doc).toContain(expected);
  });

  it.each([
    ["MC-12 handoff never carries tool_result bodies", SECRET],
    ["MC-9 handoff drops finished open work", "Hire a designer"],
  ])("%s", (_name, absent) => {
    expect(doc).not.toContain(absent);
  });

  it("MC-9 recent turns are limited to the latest N user turns", () => {
    const short = buildHandoff(transcript, { recentTurns: 1 });
    expect(short).toContain("turn 3: status?");
    expect(short).not.toContain("turn 2: continue");
  });

  it("MC-9 without a task item the first user message stands in", () => {
    expect(buildHandoff([{ kind: "user", text: "please plan" }])).toContain("## Task\nplease plan");
    expect(buildHandoff([])).toContain("(no task recorded)");
  });

  it("MC-9 under pressure the newest decisions survive", () => {
    const many: TranscriptItem[] = Array.from({ length: 200 }, (_, i) => ({
      kind: "decision",
      text: `decision number ${i}`,
    }));
    const small = buildHandoff(many, { maxBytes: 600 });
    expect(small).toContain("decision number 199");
    expect(small).not.toContain("decision number 0\n");
  });

  it("MC-9 the byte cap is hard for any transcript and any cap", () => {
    const item = fc.oneof(
      fc.record({
        kind: fc.constant("task" as const),
        text: fc.string({ unit: "grapheme", maxLength: 2000 }),
      }),
      fc.record({
        kind: fc.constant("decision" as const),
        text: fc.string({ unit: "grapheme", maxLength: 500 }),
      }),
      fc.record({
        kind: fc.constant("user" as const),
        text: fc.string({ unit: "grapheme", maxLength: 500 }),
      }),
      fc.record({
        kind: fc.constant("assistant" as const),
        text: fc.string({ unit: "grapheme", maxLength: 500 }),
      }),
      fc.record({
        kind: fc.constant("tool_result" as const),
        name: fc.string(),
        isError: fc.boolean(),
        body: fc.constant(SECRET),
      }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.integer({ min: 0, max: 4000 }), (items, maxBytes) => {
        const out = buildHandoff(items, { maxBytes });
        expect(utf8Length(out)).toBeLessThanOrEqual(maxBytes);
        expect(out).not.toContain(SECRET);
        expect(Buffer.from(out, "utf8").toString("utf8")).toBe(out); // no split character
      }),
    );
  });
});

describe("utf8 truncation", () => {
  it.each([
    ["ascii fits", "hello", 5, "hello"],
    ["ascii cut", "hello world", 8, "hello…"],
    ["never splits a multibyte character", "ééééé", 7, "éé…"],
    ["emoji", "😀😀😀", 8, "😀…"],
    ["zero bytes", "abc", 0, ""],
  ])("MC-9 %s", (_name, text, max, expected) => {
    expect(truncateUtf8(text, max)).toBe(expected);
  });
});
