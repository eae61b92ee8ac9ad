// The system-prompt lock's files (MC-7): prompts.lock.json (hash and text per id) and the append-only
// prompts.lock.log.jsonl. Reading them and relocking live here, beside `cadre prompts`, their only
// user; the comparison itself is core's pure `comparePromptLock`.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import {
  comparePromptLock,
  type LockedText,
  type PromptLock,
  type PromptLockRecord,
  sha256,
  UserInputError,
} from "@cadre/core";

function emptyPromptLock(): PromptLock {
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
