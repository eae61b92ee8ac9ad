// An incremental Server-Sent Events parser (the WHATWG event-stream format): bytes arrive in
// chunks that cut frames, lines and even CRLF pairs anywhere, and each complete frame comes out
// once. The browser's EventSource would do this, but it cannot send an Authorization header, so
// the dashboard reads the stream with fetch and parses it here.

export interface SseFrame {
  /** The frame's `id:`, when it had one. */
  id: string | undefined;
  /** `event:`, default "message". */
  event: string;
  data: string;
}

export class SseParser {
  private buffer = "";
  private id: string | undefined;
  private event = "";
  private data: string[] = [];
  /** The server's `retry:` advice, in ms. */
  retryMs: number | undefined;

  /** Feeds decoded text; returns the frames it completed. */
  push(text: string): SseFrame[] {
    const buffer = this.buffer + text;
    const frames: SseFrame[] = [];
    // One pass over the chunk: each line is found from where the previous one ended (a chunk
    // can hold thousands of lines; re-scanning or re-slicing the rest per line would be quadratic).
    const eol = /\r\n|\r|\n/g;
    let start = 0;
    for (;;) {
      const match = eol.exec(buffer);
      if (!match) break;
      // A lone CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (match[0] === "\r" && match.index === buffer.length - 1) break;
      const frame = this.line(buffer.slice(start, match.index));
      if (frame) frames.push(frame);
      start = eol.lastIndex;
    }
    this.buffer = buffer.slice(start);
    return frames;
  }

  private line(line: string): SseFrame | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\u0000")) this.id = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseFrame | undefined {
    const hasData = this.data.length > 0;
    const frame: SseFrame = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
    this.event = "";
    this.data = [];
    // The id persists across frames (it is the stream's last event id), as the standard says.
    return hasData ? frame : undefined;
  }
}
