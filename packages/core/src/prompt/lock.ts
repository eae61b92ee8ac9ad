// The system-prompt lock (MC-7). Every text that can reach a model's system part is recorded in a
// committed lock file with its SHA-256 and the text itself (so a diff needs nothing else); every
// change is appended to a log with the reason and the expected effect on behaviour and cache. The
// check fails when a text differs from its entry, when an entry has no log record, or when the lock
// was edited by hand (an entry whose hash does not match its text).
import { createHash } from "node:crypto";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { UserInputError } from "../errors.js";

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

export function emptyPromptLock(): PromptLock {
  return { version: 1, texts: {} };
}

export async function readPromptLock(path: string): Promise<PromptLock> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyPromptLock();
    throw error;
  }
  const lock = JSON.parse(text) as PromptLock;
  if (lock?.version !== 1 || typeof lock.texts !== "object" || lock.texts === null)
    throw new UserInputError(`${path} is not a version 1 prompt lock`);
  return lock;
}

export async function readPromptLockLog(path: string): Promise<PromptLockRecord[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return text
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line, i) => {
      try {
        return JSON.parse(line) as PromptLockRecord;
      } catch {
        throw new UserInputError(`${path}: line ${i + 1} is not JSON`);
      }
    });
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

export interface RelockInput {
  lockPath: string;
  logPath: string;
  texts: readonly LockedText[];
  reason: string;
  effect: string;
  /** Default: now. */
  date?: Date;
}

/**
 * Writes the lock for the current texts and appends one log record per changed, added or removed
 * text. Returns the records written (none when everything was already locked).
 */
export async function relockPrompts(input: RelockInput): Promise<PromptLockRecord[]> {
  const reason = input.reason.trim();
  const effect = input.effect.trim();
  if (!reason) throw new UserInputError("a relock needs --reason: why the text changed");
  if (!effect)
    throw new UserInputError(
      "a relock needs --effect: the expected effect on behaviour and on the prompt cache",
    );
  const lock = await readPromptLock(input.lockPath);
  const log = await readPromptLockLog(input.logPath);
  const comparison = comparePromptLock(lock, log, input.texts);
  const duplicate = comparison.problems.find((p) => p.includes("defined twice"));
  if (duplicate) throw new UserInputError(duplicate);
  const date = (input.date ?? new Date()).toISOString();
  const records: PromptLockRecord[] = [
    ...comparison.changed.map((c) => ({
      date,
      id: c.id,
      oldHash: c.lockedHash,
      newHash: c.currentHash,
      reason,
      effect,
    })),
    ...comparison.added.map((a) => ({
      date,
      id: a.id,
      oldHash: null,
      newHash: a.currentHash,
      reason,
      effect,
    })),
    ...comparison.removed.map((r) => ({
      date,
      id: r.id,
      oldHash: r.lockedHash,
      newHash: null,
      reason,
      effect,
    })),
  ];
  // Entries whose log record is missing (an old hand edit) are re-recorded too, so the check passes.
  const lastRecord = new Map(log.map((r) => [r.id, r]));
  for (const t of input.texts) {
    const hash = sha256(t.text);
    const entry = lock.texts[t.id];
    if (entry && entry.sha256 === hash && lastRecord.get(t.id)?.newHash !== hash)
      records.push({
        date,
        id: t.id,
        oldHash: lastRecord.get(t.id)?.newHash ?? null,
        newHash: hash,
        reason,
        effect,
      });
  }
  if (records.length === 0) return [];
  const next: PromptLock = { version: 1, texts: {} };
  for (const t of [...input.texts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    next.texts[t.id] = { sha256: sha256(t.text), text: t.text };
  await writeFile(input.lockPath, `${JSON.stringify(next, null, 2)}\n`);
  await appendFile(input.logPath, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return records;
}
