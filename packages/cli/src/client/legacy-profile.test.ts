// `--profile legacy` on the local demo and wake: the API is served for the wake, and the CEO's hires
// arrive through it with via "http"; a bad profile is a usage error.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-cli-legacy-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, ENV);

describe("--profile legacy", () => {
  it("`cadre demo --profile legacy` hires through the HTTP path; the semantic demo on another company through the tool", async () => {
    const legacy = await cli(
      "demo",
      "--data",
      join(dir, "legacy"),
      "--profile",
      "legacy",
      "--seed",
      "9",
      "--json",
    );
    expect(legacy.code, legacy.err).toBe(0);
    expect(legacy.err).toMatch(
      /legacy profile: the API for this wake is served at http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(legacy.err).toMatch(/→ bash \{"command":"node -e 'fetch\(/);
    const summary = legacy.json();
    expect(summary.initialCue.tokens).toBeGreaterThan(300);
    expect(summary.hires.length).toBeGreaterThanOrEqual(3);
    expect(summary.hires.every((h: { via: string }) => h.via === "http")).toBe(true);
    expect(summary.approvals).toEqual([
      expect.objectContaining({ type: "approve_ceo_strategy", status: "pending" }),
    ]);
    expect(summary.ceoMode).toBe("awaiting-approval");

    const semantic = (await cli("demo", "--data", join(dir, "semantic"), "--seed", "9", "--json")).json();
    expect(semantic.hires.every((h: { via: string }) => h.via === "tool")).toBe(true);
    // Same seed, same plan: the profiles differ in the path, not in the team.
    expect(summary.hires.map((h: { name: string }) => h.name)).toEqual(
      semantic.hires.map((h: { name: string }) => h.name),
    );
  });

  it("refuses an unknown profile with exit 2", async () => {
    expect((await cli("demo", "--data", dir, "--profile", "vintage")).code).toBe(2);
    expect((await cli("wake", "agt_x", "--data", dir, "--profile", "vintage")).err).toMatch(
      /--profile must be one of semantic, legacy/,
    );
  });
});
