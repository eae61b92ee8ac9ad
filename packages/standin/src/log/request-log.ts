// The request log: every request in memory, in arrival order, and optionally one JSON line per
// request appended to a file once its answer is decided (a hung request is logged when it hangs).
import { createWriteStream, type WriteStream } from "node:fs";
import type { LoggedRequest } from "../types.js";

export class RequestLog {
  readonly entries: LoggedRequest[] = [];
  private readonly file: WriteStream | undefined;

  constructor(
    path: string | undefined,
    private readonly onSettled?: (entry: LoggedRequest) => void,
  ) {
    this.file = path ? createWriteStream(path, { flags: "a" }) : undefined;
  }

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
  }

  /** The entry's status and answer are final: write its line (the body once, as rawBody). */
  settle(entry: LoggedRequest): void {
    if (this.file) {
      const request = entry.request ? { ...entry.request, body: undefined, headers: undefined } : undefined;
      this.file.write(`${JSON.stringify({ ...entry, request })}\n`);
    }
    this.onSettled?.(entry);
  }

  close(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    return new Promise((resolve, reject) =>
      file.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
