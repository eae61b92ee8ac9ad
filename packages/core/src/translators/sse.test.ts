import { describe, expect, it } from "vitest";
import { SseParser } from "./sse.js";

type Seen = [eventType: string, data: string, line: number];

function parse(chunks: (string | Uint8Array)[]): { events: Seen[]; cutAt: number } {
  const events: Seen[] = [];
  const parser = new SseParser((type, data, line) => events.push([type, data, line]));
  for (const c of chunks) parser.push(c);
  return { events, cutAt: parser.end() };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe("SseParser", () => {
  it("dispatches on blank lines with LF, CRLF and lone CR endings alike", () => {
    const body = "event: a|data: 1||data: 2||event: b|data: 3||";
    for (const eol of ["\n", "\r\n", "\r"]) {
      expect(parse([body.replaceAll("|", eol)]).events, JSON.stringify(eol)).toEqual([
        ["a", "1", 2],
        ["", "2", 4],
        ["b", "3", 7],
      ]);
    }
  });

  it("splits a CRLF pair across chunks without seeing an extra blank line", () => {
    expect(parse(["data: x\r", "\n\r", "\ndata: y\r\n\r\n"]).events).toEqual([
      ["", "x", 1],
      ["", "y", 3],
    ]);
  });

  it("ignores comments, joins multi-line data with LF, strips one leading space only", () => {
    expect(parse([": hello\ndata:  two spaces\ndata:none\n: mid\ndata\n\n"]).events).toEqual([
      ["", " two spaces\nnone\n", 2],
    ]);
  });

  it("ignores id, retry and unknown fields, and blank lines without data", () => {
    expect(parse(["id: 7\nretry: 100\nfoo: bar\n\nevent: only-type\n\ndata: z\n\n"]).events).toEqual([
      ["", "z", 7],
    ]);
  });

  it("decodes a multi-byte character split across byte chunks", () => {
    const b = bytes("data: 東京🗼\n\n");
    for (let at = 1; at < b.length; at++) {
      expect(parse([b.subarray(0, at), b.subarray(at)]).events).toEqual([["", "東京🗼", 1]]);
    }
  });

  it("mixes string and byte chunks, flushing held-back bytes", () => {
    const b = bytes("data: é");
    expect(parse([b.subarray(0, b.length - 1), b.subarray(b.length - 1), "\n\n"]).events).toEqual([
      ["", "é", 1],
    ]);
  });

  it("strips a leading byte-order mark", () => {
    expect(parse([new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("data: x\n\n")])]).events).toEqual([
      ["", "x", 1],
    ]);
  });

  it("discards an event not closed by a blank line and reports where it began", () => {
    expect(parse(['data: done\n\ndata: {"cut', "\n"])).toEqual({ events: [["", "done", 1]], cutAt: 3 });
    expect(parse(["data: done\n\ndata: x"])).toEqual({ events: [["", "done", 1]], cutAt: 3 });
    expect(parse(["data: done\n\n"]).cutAt).toBe(0);
  });
});
