import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { comparePromptLock, type LockedText, sha256 } from "@cadre/core";
import { readPromptLock, readPromptLockLog, relockPrompts } from "./lock-file.js";
import { diffLines } from "./text-diff.js";

let dir: string;
let lockPath: string;
let logPath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-lock-"));
  lockPath = join(dir, "prompts.lock.json");
  logPath = join(dir, "prompts.lock.log.jsonl");
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const TEXTS: LockedText[] = [
  { id: "mode/a", text: "# A\nDo the first thing.\nThen the second." },
  { id: "tool/x", text: '{"name":"x"}' },
];

async function check(texts: readonly LockedText[]) {
  return comparePromptLock(await readPromptLock(lockPath), await readPromptLockLog(logPath), texts);
}

describe("MC-7 system-prompt lock", () => {
  it("no lock yet: every text is new; a relock records each with its reason, effect and date", async () => {
    expect((await check(TEXTS)).added.map((a) => a.id)).toEqual(["mode/a", "tool/x"]);
    const records = await relockPrompts({
      lockPath,
      logPath,
      texts: TEXTS,
      reason: "initial",
      effect: "none",
      date: new Date("2030-01-02T03:04:05Z"),
    });
    expect(records).toEqual([
      {
        date: "2030-01-02T03:04:05.000Z",
        id: "mode/a",
        oldHash: null,
        newHash: sha256(TEXTS[0]!.text),
        reason: "initial",
        effect: "none",
      },
      {
        date: "2030-01-02T03:04:05.000Z",
        id: "tool/x",
        oldHash: null,
        newHash: sha256(TEXTS[1]!.text),
        reason: "initial",
        effect: "none",
      },
    ]);
    expect((await check(TEXTS)).ok).toBe(true);
    expect(await relockPrompts({ lockPath, logPath, texts: TEXTS, reason: "again", effect: "none" })).toEqual(
      [],
    );
  });

  it("one changed character fails the check until relocked; the log keeps old and new hash", async () => {
    await relockPrompts({ lockPath, logPath, texts: TEXTS, reason: "initial", effect: "none" });
    const edited = [{ id: "mode/a", text: TEXTS[0]!.text.replace("first", "First") }, TEXTS[1]!];
    const failing = await check(edited);
    expect(failing.ok).toBe(false);
    expect(failing.changed.map((c) => [c.id, c.lockedHash, c.currentHash])).toEqual([
      ["mode/a", sha256(TEXTS[0]!.text), sha256(edited[0]!.text)],
    ]);
    expect(diffLines(failing.changed[0]!.lockedText, failing.changed[0]!.currentText)).toBe(
      "@@\n # A\n-Do the first thing.\n+Do the First thing.\n Then the second.",
    );
    const [record] = await relockPrompts({
      lockPath,
      logPath,
      texts: edited,
      reason: "capitalise",
      effect: "none on behaviour; the product-append segment changes once",
    });
    expect(record).toMatchObject({
      id: "mode/a",
      oldHash: sha256(TEXTS[0]!.text),
      newHash: sha256(edited[0]!.text),
      reason: "capitalise",
    });
    expect((await check(edited)).ok).toBe(true);
    expect(await readPromptLockLog(logPath)).toHaveLength(3);
  });

  it("a removed text is reported and logged with a null new hash", async () => {
    await relockPrompts({ lockPath, logPath, texts: TEXTS, reason: "initial", effect: "none" });
    expect((await check([TEXTS[0]!])).removed.map((r) => r.id)).toEqual(["tool/x"]);
    const records = await relockPrompts({
      lockPath,
      logPath,
      texts: [TEXTS[0]!],
      reason: "drop x",
      effect: "tool list shrinks",
    });
    expect(records).toMatchObject([{ id: "tool/x", newHash: null }]);
    expect(Object.keys((await readPromptLock(lockPath)).texts)).toEqual(["mode/a"]);
  });

  it("a lock edited by hand (text and hash updated without a log record) fails the check", async () => {
    await relockPrompts({ lockPath, logPath, texts: TEXTS, reason: "initial", effect: "none" });
    const edited = [{ id: "mode/a", text: "# A\nSomething else." }, TEXTS[1]!];
    const lock = JSON.parse(await readFile(lockPath, "utf8"));
    lock.texts["mode/a"] = { sha256: sha256(edited[0]!.text), text: edited[0]!.text };
    await writeFile(lockPath, JSON.stringify(lock));
    const result = await check(edited);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      'lock entry "mode/a" has no log record for its hash; relock with a reason and an expected effect',
    ]);
    lock.texts["mode/a"].text = "tampered";
    await writeFile(lockPath, JSON.stringify(lock));
    expect((await check(edited)).problems).toContain(
      'lock entry "mode/a": its hash does not match its text (edited by hand?)',
    );
  });

  it("a relock needs a reason and an expected effect", async () => {
    await expect(
      relockPrompts({ lockPath, logPath, texts: TEXTS, reason: " ", effect: "x" }),
    ).rejects.toThrow(/needs --reason/);
    await expect(relockPrompts({ lockPath, logPath, texts: TEXTS, reason: "x", effect: "" })).rejects.toThrow(
      /needs --effect: the expected effect on behaviour and on the prompt cache/,
    );
  });
});

describe("diffLines", () => {
  it("is empty for equal texts and shows additions and removals with context", () => {
    expect(diffLines("a\nb", "a\nb")).toBe("");
    expect(diffLines("1\n2\n3\n4\n5\n6\n7", "1\n2\n3\nX\n5\n6\n7", 1)).toBe("@@\n 3\n-4\n+X\n 5");
    expect(diffLines("a", "a\nb")).toBe("@@\n a\n+b");
  });
});
