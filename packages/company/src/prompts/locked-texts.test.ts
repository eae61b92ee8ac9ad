import { CEO_MODES } from "@cadre/model";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { comparePromptLock, readPromptLock, readPromptLockLog, relockPrompts } from "@cadre/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockedTexts } from "./locked-texts.js";
import { MODE_DOCUMENTS } from "./mode-documents.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

let dir: string;
let lockPath: string;
let logPath: string;
beforeEach(async () => {
  // A copy of the committed lock: tests never touch the real files.
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

describe("MC-7 every system-prompt text is locked", () => {
  it("gathers segments, every mode document and title, every cue, the tools and the generated templates", () => {
    const ids = lockedTexts().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const mode of CEO_MODES)
      for (const id of [
        `mode/${mode}`,
        `mode-title/${mode}`,
        `cue/${mode}/start_team_building`,
        `cue/${mode}/routine`,
      ])
        expect(ids).toContain(id);
    for (const id of [
      "segment/harness-preset/pi",
      "segment/memory-rules",
      "segment/contacts/empty",
      "tools/order",
      "tool/hire_agent",
      "tool/file_approval",
      "template/host-runtime/ceo",
      "template/contacts/roster",
    ])
      expect(ids).toContain(id);
    expect(lockedTexts().find((t) => t.id === "tool/hire_agent")?.text).toContain(
      '"description": "Hire a new agent into your company.',
    );
  });

  it("no text a model reads cites an internal rule id (C4-n, MC-n, OP-n: those are for tests and comments)", () => {
    for (const t of lockedTexts()) expect(t.text, t.id).not.toMatch(/\b(C4|MC|OP)-\d+/);
  });

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
