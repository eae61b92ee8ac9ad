// The event-stream parser: frames come out whole and once, wherever the chunks cut the bytes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.js";

const STREAM =
  'retry: 1000\n\n: keep-alive\n\nid: 1\nevent: agent_event\ndata: {"a":1}\n\nid: 2\r\nevent: domain_event\r\ndata: line one\r\ndata: line two\r\n\r\nid: 3\rdata:no space\r\rdata: orphan\n\n';
const FRAMES = [
  { id: "1", event: "agent_event", data: '{"a":1}' },
  { id: "2", event: "domain_event", data: "line one\nline two" },
  { id: "3", event: "message", data: "no space" },
  // The last id stays the stream's id until another arrives.
  { id: "3", event: "message", data: "orphan" },
];

describe("SseParser", () => {
  it("parses ids, event names, multi-line data, comments, retry advice and all three line endings", () => {
    const parser = new SseParser();
    expect(parser.push(STREAM)).toEqual(FRAMES);
    expect(parser.retryMs).toBe(1000);
  });

  it("gives the same frames however the text is cut into chunks", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: STREAM.length - 1 }), { maxLength: 20 }),
        (cuts) => {
          const parser = new SseParser();
          const points = [0, ...cuts.sort((a, b) => a - b), STREAM.length];
          const frames = points.slice(1).flatMap((end, i) => parser.push(STREAM.slice(points[i], end)));
          expect(frames).toEqual(FRAMES);
        },
      ),
    );
  });

  it("holds back an incomplete frame until its blank line arrives", () => {
    const parser = new SseParser();
    expect(parser.push("id: 9\ndata: par")).toEqual([]);
    expect(parser.push("tial\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ id: "9", event: "message", data: "partial" }]);
  });
});
