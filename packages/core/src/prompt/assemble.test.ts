import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assembleSystemPrompt,
  findVolatileContent,
  hashText,
  SEGMENT_ORDER,
  type SegmentInput,
} from "./assemble.js";

// Words without digits: stable prose that no volatile pattern can match.
const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
const prose = fc.array(word, { minLength: 1, maxLength: 40 }).map((w) => w.join(" "));
const pad = (n: number) => String(n).padStart(2, "0");

// Deliberately volatile content, as code would leak it into a stable segment.
const volatileToken = fc.oneof(
  fc
    .date({
      min: new Date("2001-01-01T00:00:00Z"),
      max: new Date("2090-01-01T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  fc
    .date({
      min: new Date("2001-01-01T00:00:00Z"),
      max: new Date("2090-01-01T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((d) => d.toString()),
  fc
    .tuple(fc.nat({ max: 23 }), fc.nat({ max: 59 }), fc.nat({ max: 59 }))
    .map(([h, m, s]) => `${h}:${pad(m)}:${pad(s)}`),
  fc.uuid(),
  fc.integer({ min: 1_500_000_000_000, max: 1_999_999_999_999 }).map(String),
  fc.integer({ min: 1_500_000_000, max: 1_999_999_999 }).map(String),
  fc
    .tuple(fc.stringMatching(/^[0-9a-f]{15,31}$/), fc.constantFrom("a", "7"))
    .map(([hex, extra]) => `run_${hex}${extra}${extra === "a" ? "1" : "b"}`),
  fc
    .tuple(fc.integer({ min: 1, max: 90 }), fc.constantFrom("seconds", "minutes", "hours", "days"))
    .map(([n, unit]) => `${n} ${unit} ago`),
);

describe("MC-3 segment assembly", () => {
  it("joins segments in the fixed order and records where each one sits and its hash", () => {
    const inputs: SegmentInput[] = SEGMENT_ORDER.map((id) => ({ id, text: `## ${id}\nText of ${id}.\n\n` }));
    const prompt = assembleSystemPrompt(inputs);
    expect(prompt.segments.map((s) => s.id)).toEqual([...SEGMENT_ORDER]);
    for (const s of prompt.segments) {
      expect(prompt.systemPrompt.slice(s.start, s.end)).toBe(s.text);
      expect(s.hash).toBe(hashText(s.text));
      expect(s.text).toBe(s.text.trimEnd());
    }
  });

  it("refuses segments out of order or repeated, naming the order", () => {
    expect(() =>
      assembleSystemPrompt([
        { id: "memory-rules", text: "a" },
        { id: "harness-preset", text: "b" },
      ]),
    ).toThrow(/out of order or repeated; the order is harness-preset → product-append/);
    expect(() =>
      assembleSystemPrompt([
        { id: "contacts", text: "a" },
        { id: "contacts", text: "b" },
      ]),
    ).toThrow(/"contacts" is out of order or repeated/);
  });

  it("property: stable prose is accepted and hashes the same on every assembly", () => {
    fc.assert(
      fc.property(fc.array(prose, { minLength: 6, maxLength: 6 }), (texts) => {
        const inputs = SEGMENT_ORDER.map((id, i) => ({ id, text: texts[i] as string }));
        expect(assembleSystemPrompt(inputs)).toEqual(assembleSystemPrompt(inputs));
      }),
    );
  });

  it("property: a deliberately volatile segment is detected, wherever the value sits", () => {
    fc.assert(
      fc.property(
        prose,
        prose,
        volatileToken,
        fc.constantFrom(...SEGMENT_ORDER),
        (before, after, token, id) => {
          const text = `${before} ${token} ${after}`;
          expect(findVolatileContent(text)).toBeDefined();
          expect(() => assembleSystemPrompt([{ id, text }])).toThrow(
            new RegExp(
              `prompt segment "${id}" contains .*volatile content belongs in the per-call user prompt only \\(MC-3\\)`,
            ),
          );
        },
      ),
    );
  });

  it("values copied from stored records (a goal that mentions a time) are exempt; the same value from code is not", () => {
    const goal = "Launch the pilot on 2026-03-01 09:00 with three customers.";
    expect(() =>
      assembleSystemPrompt([{ id: "host-runtime", text: `Goal: ${goal}`, recordValues: [goal] }]),
    ).not.toThrow();
    expect(() =>
      assembleSystemPrompt([
        { id: "host-runtime", text: `Goal: ${goal}\nGenerated at 2026-03-01 09:00`, recordValues: [goal] },
      ]),
    ).toThrow(/a timestamp \("2026-03-01 09:00"\)/);
  });

  it("model ids with a release date and plain hex words are not volatile", () => {
    expect(
      findVolatileContent("Models: claude-sonnet-4-5-20250929, gpt-5-2025-08-07, offline-scripted-1"),
    ).toBeUndefined();
    expect(findVolatileContent("a decade of deadbeef and facade")).toBeUndefined();
  });
});
