// The system-prompt lock (MC-7), its pure part: the lock's shapes, the hash and the comparison. Every
// text that can reach a model's system part is recorded in a committed lock with its SHA-256 and the
// text itself (so a diff needs nothing else); every change is appended to a log with the reason and
// the expected effect. The check fails when a text differs from its entry, when an entry has no log
// record, or when the lock was edited by hand (an entry whose hash does not match its text). Reading
// and writing the lock files is the CLI's (`cli/src/prompts/lock-file.ts`): core does no file I/O here.
import { createHash } from "node:crypto";

export interface LockedText {
  /** Stable id, e.g. "mode/team-building", "tool/hire_agent". */
  id: string;
  text: string;
}

export interface PromptLockEntry {
  sha256: string;
  text: string;
}

export interface PromptLock {
  version: 1;
  texts: Record<string, PromptLockEntry>;
}

/** One line of the append-only log. `oldHash` is null for a new text, `newHash` null for a removed one. */
export interface PromptLockRecord {
  date: string;
  id: string;
  oldHash: string | null;
  newHash: string | null;
  reason: string;
  effect: string;
}

export interface PromptLockComparison {
  ok: boolean;
  changed: Array<{
    id: string;
    lockedHash: string;
    currentHash: string;
    lockedText: string;
    currentText: string;
  }>;
  added: Array<{ id: string; currentHash: string; currentText: string }>;
  removed: Array<{ id: string; lockedHash: string; lockedText: string }>;
  /** Integrity problems of the lock itself (hand edits, missing log records). */
  problems: string[];
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Compares the current texts with the lock and the lock with its log. */
export function comparePromptLock(
  lock: PromptLock,
  log: readonly PromptLockRecord[],
  texts: readonly LockedText[],
): PromptLockComparison {
  const result: PromptLockComparison = { ok: true, changed: [], added: [], removed: [], problems: [] };
  const current = new Map<string, string>();
  for (const t of texts) {
    if (current.has(t.id)) result.problems.push(`text id "${t.id}" is defined twice`);
    current.set(t.id, t.text);
  }
  for (const [id, text] of current) {
    const entry = lock.texts[id];
    const hash = sha256(text);
    if (!entry) result.added.push({ id, currentHash: hash, currentText: text });
    else if (entry.sha256 !== hash)
      result.changed.push({
        id,
        lockedHash: entry.sha256,
        currentHash: hash,
        lockedText: entry.text,
        currentText: text,
      });
  }
  const lastRecord = new Map<string, PromptLockRecord>();
  for (const record of log) lastRecord.set(record.id, record);
  for (const [id, entry] of Object.entries(lock.texts)) {
    if (!current.has(id)) result.removed.push({ id, lockedHash: entry.sha256, lockedText: entry.text });
    if (sha256(entry.text) !== entry.sha256)
      result.problems.push(`lock entry "${id}": its hash does not match its text (edited by hand?)`);
    if (lastRecord.get(id)?.newHash !== entry.sha256)
      result.problems.push(
        `lock entry "${id}" has no log record for its hash; relock with a reason and an expected effect`,
      );
  }
  result.ok =
    result.changed.length === 0 &&
    result.added.length === 0 &&
    result.removed.length === 0 &&
    result.problems.length === 0;
  return result;
}
