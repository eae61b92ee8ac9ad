// Every run cap on the harnesses that call the model themselves — the REAL Claude Code and Codex
// binaries against a loopback @cadre/standin server (offline): a model that loops on a company tool
// (hire_agent on a connector that does not exist: refused by the tool each time, nothing written)
// is stopped at each cap — model calls, tool calls, tokens, USD, wall time — the run ends
// failed/run_cap naming the cap, and the run's usage and its stored model calls are what the
// stand-in served, to the token. Deterministic: from the call named in each case on, the stand-in
// holds every call until the test ends (a call sent after the stop is never answered, so no call is
// half-counted).
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCompany, loadCompanyState, runUsageReport, setBudget, wakeAgent } from "@cadre/company";
import type { Usage } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { findTool, reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

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

interface CapCase {
  cap: string;
  /** What `cadre budgets set` is given (a price first, for the USD cap). */
  set: Record<string, unknown>;
  priced?: boolean;
  /** The stand-in answers this many calls; later ones are held. */
  answers: number;
  error: RegExp;
}

const CASES: CapCase[] = [
  { cap: "model calls", set: { runModelCalls: 3 }, answers: 3, error: /cap of 3 model calls/ },
  // The third tool call is refused at the cap; the model's next call is never answered.
  { cap: "tool calls", set: { runToolCalls: 2 }, answers: 3, error: /cap of 2 tool calls/ },
  // Less than one call of either harness (their instructions alone are larger).
  { cap: "tokens", set: { runTokens: 1_000 }, answers: 1, error: /cap of 1000 tokens/ },
  { cap: "USD", set: { runUsd: 0.0001 }, priced: true, answers: 1, error: /cap of \$0\.000100/ },
  // Two calls answered, then a model that never answers: the wall-time cap ends the wait.
  { cap: "wall time", set: { runWallSeconds: 8 }, answers: 2, error: /cap of 8 s of wall time/ },
];

let dir: string;
let store: Store;
let release: () => void;
let server: StandinServer;
let answered = 0;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-harness-caps-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  answered = 0;
});
afterEach(async () => {
  vi.unstubAllEnvs();
  release?.();
  await server?.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * A model that calls hire_agent forever, answering `answers` calls and holding the rest. With
 * `toolCallsOnly`, requests that offer no hire_agent (a readiness probe) are answered and not counted.
 */
async function loopingStandin(answers: number, toolCallsOnly = false): Promise<StandinServer> {
  const held = new Promise<void>((resolve) => (release = resolve));
  let looped = 0;
  return startStandin({
    policy: async (request, context) => {
      if (toolCallsOnly && !findTool(request, "hire_agent")) return reply.text("ready (stand-in)");
      if ((toolCallsOnly ? looped++ : context.callIndex) >= answers) await held;
      answered++;
      const hire = findTool(request, "hire_agent");
      if (!hire) return reply.text("no hire_agent tool was offered (stand-in)");
      return reply.toolCall(hire, {
        name: `Lead ${context.callIndex}`,
        role: "Lead",
        description: "A lead the loop keeps asking for.",
        connectorId: "no-such-connector",
        model: "no-such-model",
      });
    },
  });
}

const HARNESSES = [
  { kind: "claude-code" as const, binary: REAL_CLAUDE_CODE },
  { kind: "codex" as const, binary: REAL_CODEX },
];

describe.each(HARNESSES)("run caps on the real $kind binary", ({ kind, binary }) => {
  it.skipIf(!binary).each(CASES)(
    "a looping model is stopped at the $cap cap: run_cap named, usage to the token",
    async (c) => {
      server = await loopingStandin(c.answers);
      const home = join(dir, "home");
      await mkdir(home, { recursive: true });
      if (kind === "claude-code") vi.stubEnv("ANTHROPIC_BASE_URL", server.anthropicBaseUrl);
      const company = await createCompany(store, {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots.",
        connectors: [
          kind === "codex" ? { kind, config: { baseUrl: server.openaiBaseUrl } } : { kind: "claude-code" },
        ],
        ceoConnectorId: kind,
      });
      const { ceo } = await loadCompanyState(store, company.id);
      if (c.priced)
        await setBudget(
          store,
          { companyId: company.id },
          { price: { model: ceo.model, since: "2020-01-01", ...PRICE } },
        );
      await setBudget(store, { companyId: company.id }, c.set);
      const result = await wakeAgent({
        store,
        agentId: ceo.id,
        dataDir: dir,
        trigger: "start_team_building",
        env: kind === "codex" ? codexTestEnv(home) : claudeCodeTestEnv(home, server.anthropicBaseUrl),
        ...(kind === "codex" ? { cadreCommand: [process.execPath, BIN] } : {}),
      });
      expect(result).toMatchObject({ terminal: "failed", stopReason: "run_cap" });
      expect(result.run.error).toMatch(c.error);
      expect(answered).toBe(c.answers);
      const spent = served(server);
      expect(spent.input + spent.output).toBeGreaterThan(0);
      expect(result.usage).toEqual(spent);
      expect(result.run.usage).toEqual(spent);
      const calls = await store.listModelCalls(result.run.id);
      expect(calls).toHaveLength(c.answers);
      const booked = calls.reduce(
        (t, call) => ({
          input: t.input + call.usage.input,
          output: t.output + call.usage.output,
          cacheRead: t.cacheRead + call.usage.cacheRead,
          cacheWrite: t.cacheWrite + call.usage.cacheWrite,
        }),
        { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      );
      expect(booked).toEqual(spent);
      // `cadre usage --run` reads the same calls.
      expect((await runUsageReport(store, result.run.id)).turns).toHaveLength(c.answers);
      // Nothing the loop asked for was written.
      expect((await store.listAgents(company.id)).filter((a) => !a.isCeo)).toHaveLength(0);
    },
    120_000,
  );
});

describe("the wall-time cap on a Pi-routed connector (openai-compatible, the stand-in's Chat Completions wire)", () => {
  // The cap leaves room for the wake's first call: loading the tokenizer that counts it takes seconds on a busy machine.
  it("a model that stops answering is stopped at the cap: run_cap named, the answered calls booked", async () => {
    server = await loopingStandin(2, true);
    vi.stubEnv("CAPS_PI_KEY", "sk-caps-pi-not-a-key");
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots.",
      connectors: [
        {
          id: "pi",
          kind: "openai-compatible",
          config: {
            baseUrl: server.openaiBaseUrl,
            apiKeyEnv: "CAPS_PI_KEY",
            models: [{ id: "caps-chat-7b", contextWindow: 32768 }],
          },
        },
      ],
      ceoConnectorId: "pi",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    await setBudget(store, { companyId: company.id }, { runWallSeconds: 12 });
    const result = await wakeAgent({ store, agentId: ceo.id, dataDir: dir, trigger: "start_team_building" });
    expect(result).toMatchObject({ terminal: "failed", stopReason: "run_cap" });
    expect(result.run.error).toMatch(/cap of 12 s of wall time/);
    expect(answered).toBe(2);
    // The run's calls: the two answered loop calls, and the one cut by the cap, which used nothing
    // (a readiness probe is not the run's).
    const calls = await store.listModelCalls(result.run.id);
    expect(calls.filter((c) => c.usage.input + c.usage.output > 0)).toHaveLength(2);
    const looped = server
      .modelCalls()
      .flatMap((c) => (c.answered?.usage && c.request.tools.length > 0 ? [c.answered.usage] : []));
    const booked = calls.reduce((t, c) => t + c.usage.input + c.usage.output + c.usage.cacheRead, 0);
    expect(booked).toBe(looped.reduce((t, u) => t + u.input + u.output + u.cacheRead, 0));
    expect(result.usage).toEqual(result.run.usage);
  }, 60_000);
});
