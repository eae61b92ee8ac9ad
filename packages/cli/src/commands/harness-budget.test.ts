// Spend control on a harness that calls the model itself — the REAL Claude Code binary, against a
// loopback @cadre/standin server (OFFLINE, the Anthropic Messages wire): its model calls cannot be
// reserved before they are sent, so the budget is checked after each call it reports. A call that
// uses the budget up stops the run there: the harness is cancelled, the tools it asks for after the
// stop are refused, the run ends failed/budget and the next wake is refused. Deterministic: the
// stand-in holds any call after the first until the run has ended (a call the harness had already
// sent when it was cancelled is never answered).
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BudgetExhaustedError,
  budgetReport,
  createCompany,
  loadCompanyState,
  runUsageReport,
  setBudget,
  wakeAgent,
} from "@cadre/company";
import { fileURLToPath } from "node:url";
import type { Usage } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { hireLeads, type Policy, reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { runUsageText } from "../operator/render/usage.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

/** What a stand-in's answered calls used, as Cadre counts it. */
function served(standin: StandinServer): Usage {
  const t: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const call of standin.modelCalls()) {
    const u = call.answered?.usage;
    if (!u) continue;
    t.input += u.input;
    t.output += u.output;
    t.cacheRead += u.cacheRead;
    t.cacheWrite += u.cacheWrite;
  }
  return t;
}

const total = (u: Usage) => u.input + u.output + u.cacheRead + u.cacheWrite;

let dir: string;
let store: Store;
let server: StandinServer;
let release: () => void;
let answered = 0;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-harness-budget-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  const released = new Promise<void>((resolve) => (release = resolve));
  const leads = hireLeads();
  answered = 0;
  const policy: Policy = async (request, context) => {
    if (context.callIndex > 0) await released;
    answered++;
    return leads(request, context);
  };
  server = await startStandin({ policy });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  release();
  await server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a budget on a Claude Code run (the harness calls the model itself)", () => {
  it.skipIf(!REAL_CLAUDE_CODE)(
    "the call that uses the budget up stops the run: cancelled after it, failed/budget, the next wake refused",
    async () => {
      vi.stubEnv("ANTHROPIC_BASE_URL", server.anthropicBaseUrl);
      const company = await createCompany(store, {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots.",
        connectors: [{ kind: "claude-code" }],
        ceoConnectorId: "claude-code",
      });
      const { ceo } = await loadCompanyState(store, company.id);
      // Less than one Claude Code call (the CEO's system prompt alone is larger): the first call is the last.
      await setBudget(store, { companyId: company.id }, { tokens: 300 });
      const home = join(dir, "home");
      await mkdir(home, { recursive: true });
      const result = await wakeAgent({
        store,
        agentId: ceo.id,
        dataDir: dir,
        trigger: "start_team_building",
        env: claudeCodeTestEnv(home, server.anthropicBaseUrl),
      });
      expect(answered).toBe(1);
      expect(result).toMatchObject({ terminal: "failed", stopReason: "budget" });
      expect(result.run.error).toMatch(
        /^budget: the monthly budget of company \S+ is exhausted: \d+ of 300 tokens/,
      );
      // After the fact: the one call is recorded, past the limit (it could not be reserved first).
      const calls = await store.listModelCalls(result.run.id);
      expect(calls).toHaveLength(1);
      const report = await budgetReport(store, { companyId: company.id });
      expect(report.budget).toMatchObject({ state: "exhausted" });
      expect(report.budget.used.tokens).toBeGreaterThan(300);
      expect(await store.listActivity(company.id, { type: "budget.exhausted" })).toHaveLength(1);
      // At most the hire the first call asked for; nothing after the stop.
      expect((await store.listAgents(company.id)).filter((a) => !a.isCeo).length).toBeLessThanOrEqual(1);
      expect(await store.listApprovals(company.id)).toHaveLength(0);
      const refused = await wakeAgent({ store, agentId: ceo.id }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BudgetExhaustedError);
    },
    120_000,
  );
});

describe.skipIf(!REAL_CODEX)("usage and budgets of a Codex run (the harness calls the model itself)", () => {
  async function codexCompany(baseUrl: string) {
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots.",
      connectors: [{ kind: "codex", config: { baseUrl } }],
      ceoConnectorId: "codex",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    return { company, ceo };
  }
  const wake = (agentId: string) =>
    wakeAgent({
      store,
      agentId,
      dataDir: dir,
      trigger: "start_team_building",
      env: codexTestEnv(join(dir, "home")),
      cadreCommand: [process.execPath, BIN],
    });

  it("a turn the endpoint fails mid-run still books every call it answered, in the run, its model calls and the budget", async () => {
    const leads = hireLeads();
    const failing = await startStandin({
      policy: (request, context) =>
        context.callIndex === 0
          ? leads(request, context)
          : reply.error("invalid_request", { message: "the endpoint failed mid-run (stand-in)" }),
    });
    try {
      const { company, ceo } = await codexCompany(failing.openaiBaseUrl);
      await setBudget(store, { companyId: company.id }, { tokens: 1_000_000 });
      const result = await wake(ceo.id);
      expect(result.terminal).toBe("failed");
      expect(result.run.error).toMatch(/failed mid-run/);
      const spent = served(failing);
      expect(total(spent)).toBeGreaterThan(0);
      expect(result.usage).toEqual(spent);
      expect(result.run.usage).toEqual(spent);
      const calls = await store.listModelCalls(result.run.id);
      expect(calls.map((c) => c.usage)).toEqual([spent]);
      const report = await budgetReport(store, { companyId: company.id });
      expect(report.budget.used.tokens).toBe(total(spent));
    } finally {
      await failing.close();
    }
  }, 120_000);

  it("a call to a tool Codex was not given is in the run: a refused tool call with Codex's answer, in `cadre usage --run`", async () => {
    const leads = hireLeads();
    const refusing = await startStandin({
      policy: (request, context) =>
        context.callIndex === 0 ? reply.toolCall("hire_agent", { name: "CTO" }) : leads(request, context),
    });
    try {
      const { ceo } = await codexCompany(refusing.openaiBaseUrl);
      const result = await wake(ceo.id);
      const report = await runUsageReport(store, result.run.id);
      expect(report.toolCalls!.refused).toEqual([
        { name: "hire_agent", result: expect.stringContaining("hire_agent") },
      ]);
      expect(report.toolCalls!.total).toBeGreaterThan(1); // the refused one and the hires Codex ran
      expect(runUsageText(report)).toMatch(
        /tool calls \d+, 1 refused by the harness \(no such tool\)\n {4}refused hire_agent: /,
      );
      expect(result.usage).toEqual(served(refusing));
    } finally {
      await refusing.close();
    }
  }, 120_000);

  it("a model that loops on a tool Codex does not have is stopped by the run's tool-call cap, every refused call counted and every answered call booked", async () => {
    let hold!: () => void;
    const held = new Promise<void>((resolve) => (hold = resolve));
    const looping = await startStandin({
      policy: async (_request, context) => {
        if (context.callIndex >= 4) await held; // a call sent after the cap stopped the run is never answered
        return reply.toolCall("hire_agent", { name: `Lead ${context.callIndex}` });
      },
    });
    try {
      const { company, ceo } = await codexCompany(looping.openaiBaseUrl);
      await setBudget(store, { companyId: company.id }, { runToolCalls: 3 });
      const result = await wake(ceo.id);
      expect(result).toMatchObject({ terminal: "failed", stopReason: "run_cap" });
      expect(result.run.error).toMatch(/cap of 3 tool calls/);
      const report = await runUsageReport(store, result.run.id);
      expect(report.toolCalls!.refused.map((r) => r.name)).toEqual(Array(4).fill("hire_agent"));
      const spent = served(looping);
      expect(looping.modelCalls().filter((c) => c.answered?.usage)).toHaveLength(4);
      expect(result.usage).toEqual(spent);
      expect(await store.listModelCalls(result.run.id)).toHaveLength(4);
    } finally {
      hold();
      await looping.close();
    }
  }, 120_000);

  it("the call that uses the budget up stops the Codex run there: booked to the token, failed/budget, the next wake refused", async () => {
    const { company, ceo } = await codexCompany(server.openaiBaseUrl);
    // Less than one Codex call (its instructions alone are larger): the first call is the last.
    await setBudget(store, { companyId: company.id }, { tokens: 2_000 });
    const result = await wake(ceo.id);
    expect(answered).toBe(1);
    expect(result).toMatchObject({ terminal: "failed", stopReason: "budget" });
    const spent = served(server);
    expect(result.usage).toEqual(spent);
    expect((await store.listModelCalls(result.run.id)).map((c) => c.usage)).toEqual([spent]);
    const report = await budgetReport(store, { companyId: company.id });
    expect(report.budget).toMatchObject({ state: "exhausted" });
    expect(report.budget.used.tokens).toBe(total(spent));
    const refused = await wakeAgent({ store, agentId: ceo.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BudgetExhaustedError);
  }, 120_000);
});
