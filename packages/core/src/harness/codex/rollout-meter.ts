// Every Codex model call as it is answered: the exec stream reports usage only on
// turn.completed, so a turn that fails, is cancelled, is stopped by a cap or whose process dies would
// book nothing, though each model call it made was paid. Codex writes every call into the thread's
// rollout file as it happens (seen on the real 0.163 binary): a `token_usage_record` with the call's
// own usage as soon as its response completed; later a `token_count` event whose
// `info.total_token_usage` is the thread's running total (written only after Codex ran the tools the
// call asked for: a run stopped meanwhile has the record and not the total); and the response's items —
// the function calls the model made and the outputs Codex gave back, including the calls it refused
// ("unsupported call: …"), which the exec stream never shows. The meter tails that file from where it
// last read; only whole lines are read (Codex may be writing the next one).
import { open } from "node:fs/promises";
import { join } from "node:path";
import { findRollout, type ThreadTotals, totalsOf } from "./rollout.js";

/** What one rollout line says that Cadre books. */
export type RolloutRecord =
  /** One model call's usage, written as its response completed (before Codex runs the calls it made). */
  | { type: "call_usage"; usage: ThreadTotals }
  /** The thread's running total, written once Codex recorded what it did with the response. */
  | { type: "total"; total: ThreadTotals }
  /** A tool call the model made, by the name Codex offers it under (`mcp__server__tool` for MCP). */
  | { type: "call"; callId: string; name: string; input: unknown }
  /** What Codex answered the model for a call. */
  | { type: "output"; callId: string; text: string };

export class RolloutMeter {
  #file: string | undefined;
  #offset: number;
  #rest = "";
  /** One read at a time: a poll and an end-of-run drain never read the same bytes twice. */
  #reading: Promise<RolloutRecord[]> = Promise.resolve([]);

  /** `offset`: bytes of the file already accounted for (a resumed thread's history). */
  constructor(
    private readonly home: string,
    private readonly threadId: string,
    offset = 0,
  ) {
    this.#offset = offset;
  }

  /** The records written since the last read (none while the file does not exist yet). */
  read(): Promise<RolloutRecord[]> {
    this.#reading = this.#reading.then(
      () => this.#read(),
      () => this.#read(),
    );
    return this.#reading;
  }

  async #read(): Promise<RolloutRecord[]> {
    this.#file ??= await findRollout(join(this.home, "sessions"), this.threadId);
    if (this.#file === undefined) return [];
    let chunk: string;
    const handle = await open(this.#file, "r").catch(() => undefined);
    if (handle === undefined) return [];
    try {
      const { size } = await handle.stat();
      if (size <= this.#offset) return [];
      const buffer = Buffer.alloc(size - this.#offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.#offset);
      this.#offset += bytesRead;
      chunk = buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await handle.close();
    }
    const lines = (this.#rest + chunk).split("\n");
    this.#rest = lines.pop() ?? ""; // an unfinished line waits for the next read
    const out: RolloutRecord[] = [];
    for (const line of lines) {
      const record = parse(line);
      if (record) out.push(record);
    }
    return out;
  }
}

/** The bytes a rollout file holds now (a resumed thread's history, already counted). */
export async function rolloutSize(home: string, threadId: string): Promise<number> {
  const file = await findRollout(join(home, "sessions"), threadId);
  if (file === undefined) return 0;
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return 0;
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

interface RolloutLine {
  type?: string;
  payload?: {
    type?: string;
    info?: { total_token_usage?: Record<string, unknown> } | null;
    name?: string;
    namespace?: string;
    call_id?: string;
    arguments?: string;
    input?: string;
    output?: unknown;
  };
}

function parse(line: string): RolloutRecord | undefined {
  // Cheap test first: most lines are neither usage nor tool calls.
  if (!line.includes('"token_') && !line.includes("call")) return undefined;
  let row: RolloutLine;
  try {
    row = JSON.parse(line) as RolloutLine;
  } catch {
    return undefined; // a torn line: nothing to book
  }
  const p = row.payload;
  if (p === undefined) return undefined;
  if (row.type === "token_usage_record") {
    const usage = totalsOf((p as { usage?: Record<string, unknown> }).usage);
    return usage ? { type: "call_usage", usage } : undefined;
  }
  if (row.type === "event_msg" && p.type === "token_count") {
    const total = totalsOf(p.info?.total_token_usage);
    return total ? { type: "total", total } : undefined;
  }
  if (row.type !== "response_item" || typeof p.call_id !== "string") return undefined;
  if ((p.type === "function_call" || p.type === "custom_tool_call") && typeof p.name === "string")
    return {
      type: "call",
      callId: p.call_id,
      name: p.namespace ? `${p.namespace}__${p.name}` : p.name,
      input: callInput(p.arguments ?? p.input),
    };
  if (p.type === "function_call_output" || p.type === "custom_tool_call_output")
    return { type: "output", callId: p.call_id, text: outputText(p.output) };
  return undefined;
}

function callInput(raw: string | undefined): unknown {
  if (raw === undefined) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output))
    return output
      .map((part) =>
        typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "",
      )
      .join("\n");
  if (output && typeof output === "object" && typeof (output as { content?: unknown }).content === "string")
    return (output as { content: string }).content;
  return JSON.stringify(output ?? "");
}
