// JSON Lines parser: one JSON object per line, blank lines skipped, malformed lines reported
// with their line number. The first malformed line stops parsing (what follows is unreliable).
import { LineSplitter } from "./lines.js";
import { parseObject, type JsonObject } from "./json.js";

export type RecordHandler = (record: JsonObject, line: number) => void;
/** `cut` is true when the bad line is the unterminated last line: the stream was cut mid-line. */
export type MalformedHandler = (line: number, text: string, cut: boolean) => void;

export class JsonlParser {
  /** Set once a malformed line was reported; later input is ignored. */
  stopped = false;
  private readonly lines: LineSplitter;

  constructor(
    private readonly onRecord: RecordHandler,
    private readonly onMalformed: MalformedHandler,
  ) {
    this.lines = new LineSplitter((line, lineNo) => this.line(line, lineNo, false));
  }

  push(chunk: Uint8Array | string): void {
    if (!this.stopped) this.lines.push(chunk);
  }

  end(): void {
    if (this.stopped) return;
    const tail = this.lines.end();
    if (tail !== null) this.line(tail, this.lines.lineNo, true);
  }

  private line(text: string, lineNo: number, last: boolean): void {
    if (this.stopped || isBlank(text)) return;
    const record = parseObject(text);
    if (record === undefined) {
      this.stopped = true;
      this.onMalformed(lineNo, text, last);
      return;
    }
    this.onRecord(record, lineNo);
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}
