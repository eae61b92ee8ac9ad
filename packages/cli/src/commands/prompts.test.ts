import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";
import { DEFAULT_LOCK_PATH, logPathFor } from "./prompts.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-prompts-cli-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, ENV);

describe("cadre prompts (on a copy of the committed lock)", () => {
  let lock: string;
  beforeEach(async () => {
    lock = join(dir, "prompts.lock.json");
    await copyFile(DEFAULT_LOCK_PATH, lock);
    await copyFile(logPathFor(DEFAULT_LOCK_PATH), logPathFor(lock));
  });

  it("check passes on the committed lock, fails once a mode document differs by one character, and passes after a relock", async () => {
    expect((await cli("prompts", "check", "--lock", lock)).code).toBe(0);
    // Simulate the source changing: the lock holds a text one character away from the current one.
    const data = JSON.parse(await readFile(lock, "utf8"));
    const entry = data.texts["mode/operating"];
    entry.text = entry.text.replace("milestones", "Milestones");
    const { createHash } = await import("node:crypto");
    entry.sha256 = createHash("sha256").update(entry.text).digest("hex");
    await writeFile(lock, JSON.stringify(data));
    const failing = await cli("prompts", "check", "--lock", lock);
    expect(failing.code).toBe(1);
    expect(failing.err).toContain("changed  mode/operating");
    const diff = await cli("prompts", "diff", "--lock", lock);
    expect(diff.out).toContain("--- locked/mode/operating\n+++ current/mode/operating");
    expect(diff.out).toMatch(/^-.*Milestones.*$/m);
    expect(diff.out).toMatch(/^\+.*milestones.*$/m);
    const missing = await cli("prompts", "lock", "--lock", lock, "--reason", "restore");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--effect is required/);
    const relock = await cli(
      "prompts",
      "lock",
      "--lock",
      lock,
      "--reason",
      "restore the wording",
      "--effect",
      "none",
      "--json",
    );
    expect(relock.code).toBe(0);
    expect(relock.json().records).toMatchObject([
      { id: "mode/operating", reason: "restore the wording", effect: "none" },
    ]);
    expect((await cli("prompts", "check", "--lock", lock)).code).toBe(0);
    expect((await readFile(logPathFor(lock), "utf8")).trim().split("\n").at(-1)).toContain(
      '"id":"mode/operating"',
    );
  });

  it("list shows every text with its hash", async () => {
    const r = await cli("prompts", "list", "--json");
    expect(r.json().texts.map((t: { id: string }) => t.id)).toContain("mode/team-building");
  });
});
