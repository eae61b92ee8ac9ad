// `cadre eval` on a live connector, as a user runs it: the caps printed at the start,
// the cost and the rate figures in the record's summary, the flags' refusals, and a connector that is
// not ready named with what fixes it. The built-in stand-in plays the model; nothing leaves loopback.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
const ENV = { PATH: process.env["PATH"] ?? "", HOME: join(tmpdir(), `cadre-eval-live-cli-${process.pid}`) };
const cli = (...argv: string[]) => runCli(argv, ENV);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-live-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("cadre eval on a live connector", () => {
  it("--help documents the connectors, the caps, --max-cost-usd and --cross-source", async () => {
    const help = await cli("eval", "--help");
    expect(help.code).toBe(0);
    expect(help.out).toMatch(
      /--connector KIND +the CEO's connector: offline \| anthropic \| openai \| openai-compatible \| claude-code \| codex \| standin/,
    );
    expect(help.out).toMatch(/--max-model-calls N +model calls per sample \(default 40\)/);
    expect(help.out).toMatch(/--max-sample-seconds N +wall time per sample \(default 300\)/);
    expect(help.out).toMatch(/--max-cost-usd X +the whole run's cost limit/);
    expect(help.out).toMatch(
      /--cross-source +compare even when the baseline was recorded on another connector or model/,
    );
    expect(help.out).toMatch(/a 429 is retried after its retry-after/);
  });

  it("record on the stand-in: caps printed first, then calls, cost unknown (no price) and the gateway's figures", async () => {
    const out = join(dir, "standin");
    const run = await cli(
      "eval",
      "record",
      "--profile",
      "semantic",
      "--connector",
      "standin",
      "--samples",
      "2",
      "--only",
      "empty-single-connector",
      "--max-model-calls",
      "12",
      "--max-cost-usd",
      "1",
      "--out",
      out,
      "--json",
    );
    expect(run.code, run.err).toBe(0);
    expect(run.err.split("\n")[0]).toBe(
      "caps per sample: 12 model calls, 60 tool calls, 500000 tokens, $0.5 cost, 300 s wall time; whole run: $1 (--max-cost-usd)",
    );
    expect(run.err).toMatch(
      /warning: cost: no known price for model cadre-standin-plumbing-1b: its cost is unknown \(not 0\)/,
    );
    // With --json the human lines go to stderr; stdout holds the summary only.
    expect(run.err).toMatch(
      /\d+ model calls, cost unknown of --max-cost-usd \$1 \(not trusted: unknown prices\); 0 rate-limited \(429\) request\(s\), 0 retried, concurrency \d → lowest \d/,
    );
    const summary = JSON.parse(run.out.trim().split("\n").at(-1)!);
    expect(summary).toMatchObject({
      connector: "standin",
      costUsd: null,
      costTrusted: false,
      capped: 0,
      skipped: 0,
      caps: { modelCalls: 12, toolCalls: 60, tokens: 500000, costUsd: 0.5, wallTimeMs: 300000 },
      rateLimit: { rateLimited: 0 },
    });
    expect(summary.modelCalls).toBeGreaterThan(0);
  });

  it("refuses bad caps and a connector that is not ready, naming the flag or variable", async () => {
    const base = [
      "eval",
      "record",
      "--profile",
      "semantic",
      "--out",
      join(dir, "x"),
      "--only",
      "empty-single-connector",
    ];
    expect(await cli(...base, "--max-cost-usd", "0")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--max-cost-usd must be a number of USD > 0, e.g. 0.5 \(got "0"\)/),
    });
    expect(await cli(...base, "--max-model-calls", "zero")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--max-model-calls must be a whole number ≥ 1/),
    });
    const local = await cli(...base, "--connector", "openai-compatible");
    expect(local.code).toBe(2);
    expect(local.err).toMatch(/--connector openai-compatible needs --base-url URL .* and --model ID/);
    const anthropic = await cli(...base, "--connector", "anthropic");
    expect(anthropic.code).toBe(2);
    expect(anthropic.err).toMatch(
      /anthropic connector is not ready: ANTHROPIC_API_KEY is not set\. set ANTHROPIC_API_KEY/,
    );
  });
});
