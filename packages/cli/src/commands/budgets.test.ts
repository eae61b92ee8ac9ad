// `cadre budgets` and a demo it stops, as issue 16's offline Done-when describes: a token budget
// stops the demo with terminal "failed" / stopReason "budget" and no partial hire, `budgets show`
// reports the use, the next wake is refused with the budget named, and raising it continues.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-budgets-cli-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli([...argv, "--data", dir], ENV);

describe("cadre budgets", () => {
  it("set --tokens 1500 stops the demo at the budget; show reports it; raising it continues the work", async () => {
    expect((await cli("company", "create", "--name", "Acme")).code).toBe(0);
    const shown = await cli("budgets", "show", "--json");
    expect(shown.json().budget).toMatchObject({ limitUsd: 10, period: "month", state: "ok" });
    expect((await cli("budgets", "set", "--tokens", "1500")).code).toBe(0);

    const demo = await cli("demo", "--json", "--seed", "5");
    expect(demo.code).toBe(1);
    const summary = demo.json();
    expect(summary).toMatchObject({ terminal: "failed", stopReason: "budget" });
    // With --json, stdout holds the JSON line only; the human text (the stop and why) is on stderr.
    expect(demo.err).toMatch(/monthly budget of company .* is exhausted/);
    const used = (await cli("budgets", "show", "--json")).json().budget;
    expect(used).toMatchObject({ limitTokens: 1500, state: "exhausted" });
    expect(used.used.tokens).toBeGreaterThan(0);
    expect(used.used.tokens).toBeLessThanOrEqual(1500);

    const refused = await cli("wake", summary.ceo.agentId, "--json");
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/cannot wake: the monthly budget .*cadre budgets set --company/);

    expect((await cli("budgets", "set", "--tokens", "200000")).code).toBe(0);
    const again = await cli("demo", "--json", "--seed", "5");
    expect(again.code).toBe(0);
    expect(again.json().hires.length).toBeGreaterThan(summary.hires.length);
    expect(again.json().ceoMode).toBe("awaiting-approval");
  });

  it("refuses bad input with exit 2 and one line naming what is allowed", async () => {
    expect((await cli("company", "create", "--name", "Acme")).code).toBe(0);
    const bad = await cli("budgets", "set", "--usd", "lots");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--usd must be an amount in USD/);
    const period = await cli("budgets", "set", "--tokens", "10", "--period", "week");
    expect(period.code).toBe(2);
    expect(period.err).toMatch(/period/);
    expect((await cli("budgets", "show", "--json")).json().budget.limitTokens).toBeNull();
  });
});
