// Server-sent events parser (WHATWG HTML "event stream interpretation"), push-based so a
// translator sees each event synchronously without an object allocated per event.
import { LineSplitter } from "./lines.js";

/** Receives one dispatched event: its `event:` type ("" when absent), its data, the line of its first `data:`. */
export type SseHandler = (eventType: string, data: string, line: number) => void;

const SPACE = 32;

export class SseParser {
  private readonly lines: LineSplitter;
  private eventType = "";
  private data = "";
  private hasData = false;
  private dataLine = 0;

  constructor(private readonly onEvent: SseHandler) {
    this.lines = new LineSplitter((line, lineNo) => this.line(line, lineNo));
  }

  push(chunk: Uint8Array | string): void {
    this.lines.push(chunk);
  }

  /**
   * Ends the stream. An event not closed by a blank line is discarded, as the SSE standard
   * requires; its first data line number is returned so the caller can report the cut (else 0).
   */
  end(): number {
    const tail = this.lines.end();
    if (tail !== null) this.line(tail, this.lines.lineNo);
    const cutAt = this.hasData ? this.dataLine : 0;
    this.reset();
    return cutAt;
  }

  /** Line number of the last line read (for messages about where the input stopped). */
  get lineNo(): number {
    return this.lines.lineNo;
  }

  private line(line: string, lineNo: number): void {
    if (line.length === 0) {
      if (this.hasData) this.onEvent(this.eventType, this.data, this.dataLine);
      this.reset();
      return;
    }
    const colon = line.indexOf(":");
    if (colon === 0) return; // comment, e.g. ": keep-alive"
    let value = "";
    if (colon !== -1) {
      const from = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
      value = line.slice(from);
    }
    const nameLength = colon === -1 ? line.length : colon;
    if (nameLength === 4 && line.startsWith("data")) {
      if (this.hasData) {
        this.data += "\n" + value;
      } else {
        this.data = value;
        this.hasData = true;
        this.dataLine = lineNo;
      }
    } else if (nameLength === 5 && line.startsWith("event")) {
      this.eventType = value;
    }
    // `id` and `retry` matter only to a reconnecting client; like unknown fields they are ignored.
  }

  private reset(): void {
    this.eventType = "";
    this.data = "";
    this.hasData = false;
  }
}
