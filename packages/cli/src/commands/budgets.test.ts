// `cadre budgets` and a demo it stops: a token budget
// stops the demo with terminal "failed" / stopReason "budget" and no partial hire, `budgets show`
// reports the use, the next wake is refused with the budget named, and raising it continues.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@cadre/store";
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
    // The stop is told as what it is — not a failed call the recovery rules refused to
    // replay, and the reason said once.
    expect(demo.err).toMatch(/^ {2}stopped {4}budget: the monthly budget/m);
    expect(demo.err).not.toMatch(/budget: budget:|not an explicit context-overflow error/);
    const used = (await cli("budgets", "show", "--json")).json().budget;
    expect(used).toMatchObject({ limitTokens: 1500, state: "exhausted" });
    // The use shown is the run's recorded usage, within the limit.
    const u = summary.usage;
    expect(used.used.tokens).toBe(u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens);
    expect(used.used.tokens).toBeGreaterThan(0);
    expect(used.used.tokens).toBeLessThanOrEqual(1500);
    // No partial hire: every hire the summary names is a whole agent with its hire activity, and
    // every hire_agent call of the stopped run has its result (the call in flight settled).
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const agents = (await store.listAgents(summary.companyId)).filter((a) => !a.isCeo);
      expect(agents.map((a) => a.id).sort()).toEqual(
        summary.hires.map((h: { agentId: string }) => h.agentId).sort(),
      );
      for (const h of summary.hires)
        expect(h).toMatchObject({ connectorId: "offline", model: expect.any(String) });
      expect(await store.listActivity(summary.companyId, { type: "agent.hired" })).toHaveLength(
        agents.length,
      );
      const [run] = await store.listRuns({ companyId: summary.companyId });
      const events = (await store.listRunEvents(run!.id)).map(
        (e) => e.data as { type: string; id?: string; toolUseId?: string; name?: string },
      );
      const hireCalls = events.filter((e) => e.type === "tool_use" && e.name === "hire_agent");
      expect(hireCalls.length).toBeGreaterThanOrEqual(agents.length);
      for (const c of hireCalls)
        expect(events.some((e) => e.type === "tool_result" && e.toolUseId === c.id)).toBe(true);
    } finally {
      await store.close();
    }

    const refused = await cli("wake", summary.ceo.agentId, "--json");
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/cannot wake: the monthly budget .*cadre budgets set --company/);

    // Raised, the CEO is woken again and continues the work: the rest of the team, then the strategy.
    expect((await cli("budgets", "set", "--tokens", "200000")).code).toBe(0);
    const again = await cli("wake", summary.ceo.agentId, "--json");
    expect(again.code, again.err).toBe(0);
    expect(again.json()).toMatchObject({ terminal: "done", modeAfter: "awaiting-approval" });
    const team = (await cli("agents", "list", "--json")).json() as Array<{ isCeo: boolean }>;
    expect(team.filter((a) => !a.isCeo).length).toBeGreaterThan(summary.hires.length);
    expect((await cli("budgets", "show", "--json")).json().budget.state).toBe("ok");
  });

  it("company create shows the default budget and run caps it starts with, and how to change them", async () => {
    const created = await cli("company", "create", "--name", "Acme");
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^created company Acme \(cmp_\w+\)$/m);
    expect(created.out).toMatch(
      /^budget {5}company cmp_\w+: \$0\.00 of \$10\.00, 0 tokens — ok \(month from /m,
    );
    expect(created.out).toMatch(
      /^run caps {3}100 model calls, 200 tool calls, 2000000 tokens, \$2\.00, 1800 s wall time$/m,
    );
    expect(created.out).toMatch(/npx cadre budgets set --company cmp_\w+ --usd X .*--none for no budget/);
  });

  it("refuses bad input with exit 2 and one line naming what is allowed", async () => {
    expect((await cli("company", "create", "--name", "Acme")).code).toBe(0);
    const bad = await cli("budgets", "set", "--usd", "lots");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--usd must be an amount in USD/);
    const period = await cli("budgets", "set", "--tokens", "10", "--period", "week");
    expect(period.code).toBe(2);
    expect(period.err).toMatch(/period/);
    const wall = await cli("budgets", "set", "--run-wall-seconds", "1.5");
    expect(wall.code).toBe(2);
    expect(wall.err).toMatch(/--run-wall-seconds must be a whole number/);
    expect((await cli("budgets", "show", "--json")).json().budget.limitTokens).toBeNull();
  });

  it("sets the wall-time cap of every run, shown with the other caps (none removes it)", async () => {
    expect((await cli("company", "create", "--name", "Acme")).code).toBe(0);
    const set = await cli("budgets", "set", "--run-wall-seconds", "600", "--json");
    expect(set.code, set.err).toBe(0);
    expect(set.json().runCaps).toMatchObject({ maxWallSeconds: 600, maxModelCalls: 100 });
    const shown = await cli("budgets", "show");
    expect(shown.out).toMatch(/^run caps {3}.*, 600 s wall time$/m);
    const none = await cli("budgets", "set", "--run-wall-seconds", "none", "--json");
    expect(none.json().runCaps.maxWallSeconds).toBeNull();
    expect((await cli("budgets", "show")).out).toMatch(/, no wall-time cap$/m);
  });
});
