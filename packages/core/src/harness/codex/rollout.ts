// MC-15 for a resumed Codex thread: `turn.completed` usage is cumulative over the whole thread,
// earlier exec runs included (seen on the real binary: 3010 → 6015 → 10020 across resumeThread), so a
// session that resumes a thread another session ran must know the totals already counted, or it would
// count the thread's whole history again. Codex persists them with the thread itself: its rollout
// file (CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread id>.jsonl; the SDK: "Threads are persisted
// in ~/.codex/sessions") carries a `token_count` event whose `info.total_token_usage` is the running
// total. The last one is the baseline the next increment is measured against.
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface ThreadTotals {
  input: number;
  cached: number;
  output: number;
}

/** Codex's home directory for an environment: $CODEX_HOME, else ~/.codex. */
export function codexHome(env: Readonly<Record<string, string | undefined>>): string {
  return env["CODEX_HOME"] || join(env["HOME"] || homedir(), ".codex");
}

/** The thread's rollout file under CODEX_HOME/sessions, if Codex wrote one. */
export async function findRollout(dir: string, threadId: string, depth = 0): Promise<string | undefined> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const suffix = `${threadId}.jsonl`;
  for (const e of entries)
    if (e.isFile() && e.name.startsWith("rollout-") && e.name.endsWith(suffix)) return join(dir, e.name);
  if (depth >= 3) return undefined; // YYYY/MM/DD
  // Newest first: a resumed thread is usually recent.
  for (const e of entries.filter((d) => d.isDirectory()).sort((a, b) => b.name.localeCompare(a.name))) {
    const found = await findRollout(join(dir, e.name), threadId, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * What the thread spent so far (undefined when its rollout records none, or cannot be found): the
 * larger of its last `token_count` total and the sum of its per-call `token_usage_record`s. A turn
 * stopped between a call's record and its total (a cancel, a cap) has the call's record only, and
 * Cadre booked it from there (rollout-meter.ts): the baseline must include it, or the next total
 * would count it again.
 */
export async function threadTotals(home: string, threadId: string): Promise<ThreadTotals | undefined> {
  const file = await findRollout(join(home, "sessions"), threadId);
  if (!file) return undefined;
  let last: ThreadTotals | undefined;
  let recorded: ThreadTotals | undefined;
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    const isTotal = line.includes('"token_count"');
    const isRecord = !isTotal && line.includes('"token_usage_record"');
    if (!isTotal && !isRecord) continue;
    try {
      const row = JSON.parse(line) as {
        type?: string;
        payload?: { info?: { total_token_usage?: Record<string, unknown> }; usage?: Record<string, unknown> };
      };
      if (isTotal) last = totalsOf(row.payload?.info?.total_token_usage) ?? last;
      else if (row.type === "token_usage_record") {
        const call = totalsOf(row.payload?.usage);
        if (call) recorded = plus(recorded, call);
      }
    } catch {
      // a torn line: keep the last good total
    }
  }
  if (last === undefined || recorded === undefined) return last ?? recorded;
  return {
    input: Math.max(last.input, recorded.input),
    cached: Math.max(last.cached, recorded.cached),
    output: Math.max(last.output, recorded.output),
  };
}

function plus(a: ThreadTotals | undefined, b: ThreadTotals): ThreadTotals {
  return a === undefined
    ? { ...b }
    : { input: a.input + b.input, cached: a.cached + b.cached, output: a.output + b.output };
}

/** A `total_token_usage` object as totals; undefined when it carries none. */
export function totalsOf(total: Record<string, unknown> | undefined): ThreadTotals | undefined {
  if (!total || typeof total["input_tokens"] !== "number") return undefined;
  return {
    input: total["input_tokens"],
    cached: typeof total["cached_input_tokens"] === "number" ? total["cached_input_tokens"] : 0,
    output: typeof total["output_tokens"] === "number" ? total["output_tokens"] : 0,
  };
}

/** One model call Codex recorded in a rollout: when its response completed, and its own usage. */
export interface RolloutCall {
  at: string;
  responseId: string | null;
  usage: ThreadTotals;
}

/**
 * The model calls a thread's rollout records from `from` (inclusive) to `to` (exclusive), ISO times,
 * in the order Codex wrote them (each `token_usage_record` carries its timestamp): what one run of
 * the thread spent, read after the fact (a run whose process died with it). Empty when
 * the rollout cannot be found.
 */
export async function rolloutCalls(
  home: string,
  threadId: string,
  window: { from: string; to: string },
): Promise<RolloutCall[]> {
  const file = await findRollout(join(home, "sessions"), threadId);
  if (!file) return [];
  const calls: RolloutCall[] = [];
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.includes('"token_usage_record"')) continue;
    try {
      const row = JSON.parse(line) as {
        type?: string;
        timestamp?: string;
        payload?: { usage?: Record<string, unknown>; response_id?: unknown };
      };
      if (row.type !== "token_usage_record" || typeof row.timestamp !== "string") continue;
      // Codex writes UTC with a Z, as Cadre stores its times: they compare as strings.
      if (row.timestamp < window.from || row.timestamp >= window.to) continue;
      const usage = totalsOf(row.payload?.usage);
      if (usage)
        calls.push({
          at: row.timestamp,
          responseId: typeof row.payload?.response_id === "string" ? row.payload.response_id : null,
          usage,
        });
    } catch {
      // a torn line (the process died writing it): nothing to book
    }
  }
  return calls;
}
