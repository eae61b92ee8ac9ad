import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-cache-report-cli-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, ENV);

describe("cadre cache-report", () => {
  it("--turns 30 --json: every stable segment identical on every call, session rate ≥ 97% of the theoretical max", async () => {
    const r = await cli("cache-report", "--turns", "30", "--json");
    expect(r.code).toBe(0);
    const report = r.json() as {
      turns: Array<{
        turn: number;
        segmentHashes: Record<string, string>;
        firstDifferingByte: number | null;
        hitRate: number;
      }>;
      sessionHitRate: number;
      theoreticalMaxHitRate: number;
    };
    expect(Object.keys(report).sort()).toEqual(["sessionHitRate", "theoreticalMaxHitRate", "turns"]);
    expect(report.turns.map((t) => t.turn)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    for (const t of report.turns)
      expect(Object.keys(t).sort()).toEqual(["firstDifferingByte", "hitRate", "segmentHashes", "turn"]);
    expect(Object.keys(report.turns[0]!.segmentHashes)).toEqual([
      "harness-preset",
      "product-append",
      "memory-rules",
      "contacts",
      "host-runtime",
      "memory-index",
      "tools",
    ]);
    for (const t of report.turns) expect(t.segmentHashes).toEqual(report.turns[0]!.segmentHashes);
    expect(report.turns[0]).toMatchObject({ firstDifferingByte: null, hitRate: 0 });
    expect(
      report.turns.slice(1).every((t) => typeof t.firstDifferingByte === "number" && t.hitRate > 0.5),
    ).toBe(true);
    expect(report.sessionHitRate).toBeGreaterThanOrEqual(0.97 * report.theoreticalMaxHitRate);
    // The rewind shows up as a request that differs inside the history, not at its end.
    // With --json the table is the human stream, on stderr; stdout is the one JSON line.
    expect(r.out.trimEnd().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/rewind: the last exchange \(\d+ messages\) dropped/);
    expect(r.err).toMatch(/\(inside history\)/);
    expect(r.err).toMatch(/MEMORY\.md changed on disk/);
  });

  it("refuses a bad --turns with exit 2", async () => {
    const r = await cli("cache-report", "--turns", "1");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--turns must be a whole number from 2 to 500/);
  });
});
