// Splits a chunked byte or text stream into lines. Shared by the SSE and JSONL parsers.
// Hot path (MC-4): indexOf scans instead of regexes, one slice per line, no per-chunk arrays.

export type LineHandler = (line: string, lineNo: number) => void;

const LF = 10;
const CR = 13;

/**
 * Line splitter for LF, CRLF and lone CR endings, with chunk boundaries anywhere: inside a
 * CRLF pair, inside a line, or inside a multi-byte UTF-8 character (bytes go through one
 * streaming TextDecoder, so a split character is decoded once its last byte arrives).
 */
export class LineSplitter {
  /** Lines handed out so far; also the 1-based number of the last line. */
  lineNo = 0;
  private readonly decoder = new TextDecoder("utf-8");
  private sawBytes = false;
  private partial = "";
  /** The previous chunk ended with CR: a LF at the start of the next one belongs to it. */
  private skipLF = false;

  constructor(private readonly onLine: LineHandler) {}

  push(chunk: Uint8Array | string): void {
    let text: string;
    if (typeof chunk === "string") {
      // Flush bytes held back from an earlier binary chunk before switching to text.
      text = this.sawBytes ? this.decoder.decode() + chunk : chunk;
    } else {
      this.sawBytes = true;
      text = this.decoder.decode(chunk, { stream: true });
    }
    if (text.length > 0) this.scan(text);
  }

  /** Ends the input. Returns the final line if it had no line terminator (else null). */
  end(): string | null {
    if (this.sawBytes) {
      const tail = this.decoder.decode(); // an incomplete character becomes U+FFFD
      if (tail.length > 0) this.scan(tail);
    }
    const rest = this.partial;
    this.partial = "";
    if (rest.length === 0) return null;
    this.lineNo++;
    return rest;
  }

  private scan(text: string): void {
    const n = text.length;
    let start = 0;
    if (this.skipLF) {
      this.skipLF = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    let lf = text.indexOf("\n", start);
    let cr = text.indexOf("\r", start);
    while (lf !== -1 || cr !== -1) {
      // Re-search only the terminator we moved past; a -1 stays -1 for the rest of the chunk.
      if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
      if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
      if (lf === -1 && cr === -1) break;
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      const piece = text.slice(start, end);
      const line = this.partial.length > 0 ? this.partial + piece : piece;
      this.partial = "";
      start = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (start < n) {
          if (text.charCodeAt(start) === LF) start++;
        } else {
          this.skipLF = true;
        }
      }
      this.lineNo++;
      this.onLine(line, this.lineNo);
    }
    if (start < n)
      this.partial = this.partial.length > 0 ? this.partial + text.slice(start) : text.slice(start);
  }
}
