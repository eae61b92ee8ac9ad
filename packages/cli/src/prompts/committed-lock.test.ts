// The committed prompts.lock.json against the texts company gathers (MC-7), on a copy of the lock:
// tests never touch the real files.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lockedTexts, MODE_DOCUMENTS } from "@cadre/company";
import { comparePromptLock } from "@cadre/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readPromptLock, readPromptLockLog, relockPrompts } from "./lock-file.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

let dir: string;
let lockPath: string;
let logPath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-prompt-lock-"));
  lockPath = join(dir, "prompts.lock.json");
  logPath = join(dir, "prompts.lock.log.jsonl");
  await copyFile(join(ROOT, "prompts.lock.json"), lockPath);
  await copyFile(join(ROOT, "prompts.lock.log.jsonl"), logPath);
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function check(texts = lockedTexts()) {
  return comparePromptLock(await readPromptLock(lockPath), await readPromptLockLog(logPath), texts);
}

describe("MC-7 the committed lock", () => {
  it("the committed lock matches the texts as they are", async () => {
    const result = await check();
    expect({
      changed: result.changed.map((c) => c.id),
      added: result.added.map((a) => a.id),
      removed: result.removed.map((r) => r.id),
      problems: result.problems,
    }).toEqual({ changed: [], added: [], removed: [], problems: [] });
  });

  it("changing one character of a mode document fails the check until it is relocked with a reason and an effect", async () => {
    const edited = lockedTexts().map((t) =>
      t.id === "mode/team-building"
        ? { ...t, text: MODE_DOCUMENTS["team-building"].replace("three to five", "three to six") }
        : t,
    );
    const failing = await check(edited);
    expect(failing.ok).toBe(false);
    expect(failing.changed.map((c) => c.id)).toEqual(["mode/team-building"]);
    const records = await relockPrompts({
      lockPath,
      logPath,
      texts: edited,
      reason: "allow six roles",
      effect: "larger teams; product-append segment changes once per CEO",
    });
    expect(records).toMatchObject([{ id: "mode/team-building", reason: "allow six roles" }]);
    expect((await check(edited)).ok).toBe(true);
    expect((await check()).ok).toBe(false); // the real text now differs from the relocked copy
  });
});
