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

/** The thread's last recorded totals; undefined when its rollout has none (or cannot be found). */
export async function threadTotals(home: string, threadId: string): Promise<ThreadTotals | undefined> {
  const file = await findRollout(join(home, "sessions"), threadId);
  if (!file) return undefined;
  let last: ThreadTotals | undefined;
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.includes('"token_count"')) continue;
    try {
      const total = (
        JSON.parse(line) as { payload?: { info?: { total_token_usage?: Record<string, unknown> } } }
      ).payload?.info?.total_token_usage;
      last = totalsOf(total) ?? last;
    } catch {
      // a torn line: keep the last good total
    }
  }
  return last;
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
