import { describe, expect, it } from "vitest";
import { JsonlParser } from "./jsonl.js";

function parse(chunks: string[]) {
  const records: [unknown, number][] = [];
  const bad: [number, string, boolean][] = [];
  const parser = new JsonlParser(
    (r, line) => records.push([r, line]),
    (line, text, cut) => bad.push([line, text, cut]),
  );
  for (const c of chunks) parser.push(c);
  parser.end();
  return { records, bad };
}

describe("JsonlParser", () => {
  it("parses objects per line across chunk boundaries, skipping blank lines, with CRLF", () => {
    expect(parse(['{"a":', '1}\r\n\r\n  \n{"b":2}'])).toEqual({
      records: [
        [{ a: 1 }, 1],
        [{ b: 2 }, 4],
      ],
      bad: [],
    });
  });

  it("reports the first malformed line with its number and stops there", () => {
    expect(parse(['{"a":1}\n[1,2]\n{"b":2}\n'])).toEqual({
      records: [[{ a: 1 }, 1]],
      bad: [[2, "[1,2]", false]],
    });
  });

  it("flags an unterminated last line that does not parse as a cut", () => {
    expect(parse(['{"a":1}\n{"b":'])).toEqual({ records: [[{ a: 1 }, 1]], bad: [[2, '{"b":', true]] });
  });
});
