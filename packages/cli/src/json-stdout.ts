// With --json, stdout holds JSON only (SPEC §5): every line a command writes to stdout that is not
// a JSON value — the human stream of demo, wake, eval run, … — goes to stderr instead, so
// `cadre demo --json | jq` reads one object. Decided per line: a line that starts with `{` or `[` is
// held until it ends and kept on stdout if it parses; any other line is passed to stderr as it is
// written (streamed text stays live). Commands write as they always do; this is the one place that
// keeps the contract, for every command, including ones added later.
import type { CliIO } from "./io.js";

export interface JsonStdout {
  io: CliIO;
  /** Writes out what is held (a JSON line the command did not end with a newline). */
  flush(): void;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function jsonOnlyStdout(io: CliIO): JsonStdout {
  let line: "start" | "json" | "human" = "start";
  let held = "";
  const settle = () => {
    if (held.trim() !== "") (isJson(held) ? io.out : io.err)(held.endsWith("\n") ? held : `${held}\n`);
    held = "";
  };
  const out = (text: string) => {
    let rest = text;
    while (rest.length > 0) {
      const end = rest.indexOf("\n");
      const piece = end < 0 ? rest : rest.slice(0, end + 1);
      rest = end < 0 ? "" : rest.slice(end + 1);
      if (line === "start") line = piece.startsWith("{") || piece.startsWith("[") ? "json" : "human";
      if (line === "json") held += piece;
      else io.err(piece);
      if (piece.endsWith("\n")) {
        if (line === "json") settle();
        line = "start";
      }
    }
  };
  // Not a spread: that would read `stdin`, which loads Node's streams (see processIO).
  const jsonIO: CliIO = {
    out,
    err: io.err,
    env: io.env,
    get stdin() {
      return io.stdin;
    },
  };
  return { io: jsonIO, flush: settle };
}
