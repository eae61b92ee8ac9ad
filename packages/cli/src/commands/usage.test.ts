import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-usage-cli-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, ENV);

describe("cadre usage", () => {
  it("reports per company, per agent and per run, and one run per model call", async () => {
    const demo = await cli("demo", "--data", dir, "--json", "--seed", "5");
    expect(demo.code).toBe(0);
    expect(demo.err).toMatch(
      /usage {6}input \d+, output \d+, cache read \d+, cache write \d+, total \d+, cost \$0\.0000, cache hit rate \d+\.\d%/,
    );
    const all = await cli("usage", "--data", dir, "--json");
    const [company] = all.json().companies;
    expect(company.companyId).toBe(demo.json().companyId);
    expect(company.usage).toMatchObject({
      input: demo.json().usage.inputTokens,
      cacheRead: demo.json().usage.cacheReadTokens,
      cost: 0,
    });
    expect(company.usage.hitRate).toBeCloseTo(demo.json().usage.cacheHitRate, 12);
    expect(company.agents.length).toBeGreaterThan(1);
    const runId = company.runs[0].runId;
    const one = await cli("usage", "--data", dir, "--run", runId, "--json");
    expect(one.json().run.turns.length).toBeGreaterThan(1);
    const text = await cli("usage", "--data", dir, "--run", runId);
    expect(text.out).toMatch(/call {3}1 {2}input \d+/);
    const missing = await cli("usage", "--data", dir, "--run", "run_nope");
    expect(missing.code).toBe(2);
  });
});
