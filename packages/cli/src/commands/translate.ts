// `cadre translate --from FORMAT [--final]`: a captured vendor stream on stdin → AgentEvent
// JSON lines (SPEC §4). The translation itself lives in core; this only streams and sets exit codes.
import {
  type AgentEvent,
  INPUT_ERROR_CODES,
  isTranslatorFormat,
  MALFORMED_INPUT,
  reconstructMessages,
  STREAM_FAILURE,
  TRANSLATOR_FORMATS,
  TRANSLATORS,
} from "@cadre/core";
import { parse } from "../args.js";
import { UsageError } from "../io.js";
import { sniffFormat } from "./translate-sniff.js";

export interface TranslateIO {
  stdin: AsyncIterable<Uint8Array | string>;
  /** One output line, without its newline. */
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

export const TRANSLATE_HELP = `Usage: cadre translate --from FORMAT [--final]

Reads a captured vendor stream on stdin and writes one AgentEvent JSON object per line.

  --from FORMAT   the stream's format: ${TRANSLATOR_FORMATS.join(", ")}
  --final         write one line per assistant message instead, rebuilt from the events:
                  { role: "assistant", content: [text | thinking | tool_use], stopReason (the vendor's
                  own), usage: { input, output, cacheRead, cacheWrite } } — input counts uncached
                  input tokens only. A model call that failed or was cut is not a final message.

Exit codes: 0 translated (vendor errors inside the stream are events, not failures);
2 bad usage, or input that is malformed or cut before its end: everything valid before the
problem is written first, and stderr names the line and what was expected; 1 the input could
not be read.`;

const OPTIONS = {
  from: { type: "string" },
  final: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function translateCommand(args: string[], io: TranslateIO): Promise<number> {
  let values: { from?: string; final?: boolean; help?: boolean };
  try {
    ({ values } = parse("translate", args, OPTIONS));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // The message says what was wrong and points at --help already.
    io.stderr(`cadre ${error.message}`);
    return 2;
  }
  if (values.help) {
    io.stdout(TRANSLATE_HELP);
    return 0;
  }
  const from = values.from;
  if (from === undefined || !isTranslatorFormat(from)) {
    const what = from === undefined ? "--from FORMAT is required" : `unknown format "${from}"`;
    io.stderr(`cadre translate: ${what}; allowed formats: ${TRANSLATOR_FORMATS.join(", ")}`);
    return 2;
  }
  const problem: Problem = { exitCode: 0, message: undefined, translated: 0 };
  const head = { text: "" };
  const events = watch(
    TRANSLATORS[from](keepHead(io.stdin, head)),
    problem,
    values.final === true ? io.stderr : undefined,
  );
  if (values.final)
    for await (const message of reconstructMessages(events)) io.stdout(JSON.stringify(message));
  else for await (const event of events) io.stdout(JSON.stringify(event));
  if (problem.message !== undefined) {
    // Nothing of the input read as the format asked for: say so first, and what it looks like.
    // (An input that looks like the format asked for is only damaged: the problem says where.)
    const nothing = problem.exitCode === 2 && problem.translated === 0;
    const other = nothing ? sniffFormat(head.text) : undefined;
    const lead = !nothing
      ? ""
      : other === undefined
        ? `this does not read as ${from}; `
        : other !== from
          ? `this is not ${from} (it looks like ${other}: try --from ${other}); `
          : "";
    io.stderr(`cadre translate: ${lead}${problem.message}`);
  }
  return problem.exitCode;
}

const HEAD_BYTES = 16 * 1024;
/** Events a translator emits around any input (a turn's frame, its usage, what it did not know): not a sign the input was its format. */
const FRAMING = new Set<AgentEvent["type"]>(["error", "turn_start", "turn_end", "usage", "unknown"]);

/** Passes the input through, keeping its first bytes for `sniffFormat`. */
async function* keepHead(
  input: AsyncIterable<Uint8Array | string>,
  head: { text: string },
): AsyncGenerator<Uint8Array | string> {
  const decoder = new TextDecoder();
  for await (const chunk of input) {
    if (head.text.length < HEAD_BYTES)
      head.text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    yield chunk;
  }
}

interface Problem {
  exitCode: number;
  message: string | undefined;
  /** Content events translated from the input (framing aside). */
  translated: number;
}

/**
 * Passes events through and notes the first input problem. A malformed line is reported on
 * stderr only (it is not part of the translation); a cut stream's error event stays in the
 * output, since translators emit it as part of the stream. With --final, where events are not
 * printed, vendor errors are noted on stderr so they are not silently lost.
 */
async function* watch(
  events: AsyncIterable<AgentEvent>,
  problem: Problem,
  noteVendorError: ((line: string) => void) | undefined,
): AsyncGenerator<AgentEvent> {
  for await (const event of events) {
    if (event.type === "error") {
      const code = event.code ?? "";
      if (INPUT_ERROR_CODES.has(code) || code === STREAM_FAILURE) {
        if (problem.message === undefined) {
          problem.message = event.message;
          problem.exitCode = code === STREAM_FAILURE ? 1 : 2;
        }
        if (code === MALFORMED_INPUT) continue;
      } else if (noteVendorError) {
        noteVendorError(
          `cadre translate: the stream reports an error${event.code ? ` (${event.code})` : ""}: ${event.message}`,
        );
      }
    }
    if (!FRAMING.has(event.type)) problem.translated++;
    yield event;
  }
}
