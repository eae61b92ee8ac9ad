// Every run cap on a Pi-routed connector (openai-compatible, the stand-in's Chat Completions wire),
// as harness-caps.test.ts checks them on the Claude Code and Codex binaries: a model that loops on a
// company tool (hire_agent on a connector that does not exist: refused by the tool each time,
// nothing written) is stopped at each cap — model calls, tool calls, tokens, USD — the run ends
// failed/run_cap naming the cap, and the run's usage and its stored model calls are what the
// stand-in served, to the token (the wall-time cap on Pi is in harness-caps.test.ts). On Pi a call is reserved before it is sent, so a call past a cap is
// never sent at all. Offline: the stand-in listens on loopback.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, loadCompanyState, runUsageReport, setBudget, wakeAgent } from "@cadre/company";
import type { Usage } from "@cadre/core";
import { findTool, reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const NONE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function add(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}

/** What the stand-in's answered loop calls used (a readiness probe offers no tools and is not the run's). */
function served(standin: StandinServer): Usage[] {
  return standin
    .modelCalls()
    .flatMap((c) => (c.answered?.usage && findTool(c.request, "hire_agent") ? [c.answered.usage] : []));
}

let dir: string;
let store: Store;
let release: () => void;
let server: StandinServer | undefined;
let answered = 0;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-pi-caps-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  answered = 0;
  vi.stubEnv("CAPS_PI_KEY", "sk-caps-pi-not-a-key");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  release?.();
  await server?.close();
  server = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * A model that calls hire_agent forever, answering `answers` loop calls and holding the rest;
 * a request that offers no hire_agent (the connector's readiness probe) is answered and not counted.
 */
async function loopingStandin(answers: number): Promise<StandinServer> {
  const held = new Promise<void>((resolve) => (release = resolve));
  let looped = 0;
  return startStandin({
    policy: async (request) => {
      const hire = findTool(request, "hire_agent");
      if (!hire) return reply.text("ready (stand-in)");
      if (looped++ >= answers) await held;
      answered++;
      return reply.toolCall(hire, {
        name: `Lead ${looped}`,
        role: "Lead",
        description: "A lead the loop keeps asking for.",
        connectorId: "no-such-connector",
        model: "no-such-model",
      });
    },
  });
}

/** A company whose CEO runs on a Pi-routed connector at `standin`, with `caps` set (and a price, if given). */
async function piCompany(standin: StandinServer, caps: Record<string, unknown>, priced = false) {
  const company = await createCompany(store, {
    name: "Northwind Robotics",
    goal: "Build autonomous warehouse robots.",
    connectors: [
      {
        id: "pi",
        kind: "openai-compatible",
        config: {
          baseUrl: standin.openaiBaseUrl,
          apiKeyEnv: "CAPS_PI_KEY",
          models: [{ id: "caps-chat-7b", contextWindow: 32768 }],
        },
      },
    ],
    ceoConnectorId: "pi",
  });
  const { ceo } = await loadCompanyState(store, company.id);
  if (priced)
    await setBudget(
      store,
      { companyId: company.id },
      { price: { model: ceo.model, since: "2020-01-01", ...PRICE } },
    );
  await setBudget(store, { companyId: company.id }, caps);
  return { company, ceo };
}

/** The input tokens of a wake's first loop call, as the stand-in counts them (a wake capped at one call). */
async function firstCallInput(): Promise<number> {
  const probe = await loopingStandin(1);
  try {
    const { ceo } = await piCompany(probe, { runModelCalls: 1 });
    await wakeAgent({ store, agentId: ceo.id, dataDir: dir, trigger: "start_team_building" });
    const first = served(probe)[0];
    if (!first) throw new Error("the calibration wake made no loop call");
    return first.input;
  } finally {
    release();
    await probe.close();
    answered = 0;
  }
}

interface PiCapCase {
  cap: string;
  /** The caps to set, given the input tokens of a first call. */
  caps: (firstInput: number) => Record<string, unknown>;
  priced?: boolean;
  /** The loop calls the stand-in answers before the cap stops the run. */
  answers: number;
  error: (firstInput: number) => RegExp;
}

// Token and USD caps leave room for the first call (its input and Cadre's minimum output of 256
// tokens, at their prices) but not for the second, whose context holds the first call and its tool
// result too, on top of what the first used.
const tokenCap = (first: number): number => Math.ceil(first * 1.5) + 600;
const usdCap = (first: number): number =>
  Number((((first * 1.5 + 600) * PRICE.input + 256 * PRICE.output) / 1e6).toFixed(6));
const CASES: PiCapCase[] = [
  { cap: "model calls", caps: () => ({ runModelCalls: 3 }), answers: 3, error: () => /cap of 3 model calls/ },
  // The third tool call is refused at the cap; the model is not called again.
  { cap: "tool calls", caps: () => ({ runToolCalls: 2 }), answers: 3, error: () => /cap of 2 tool calls/ },
  {
    cap: "tokens",
    caps: (first) => ({ runTokens: tokenCap(first) }),
    answers: 1,
    error: (first) => new RegExp(`cap of ${tokenCap(first)} tokens`),
  },
  {
    cap: "USD",
    caps: (first) => ({ runUsd: usdCap(first) }),
    priced: true,
    answers: 1,
    // Shown to the cent at a cent or more, else to the millionth.
    error: (first) => {
      const cap = usdCap(first);
      return new RegExp(`cap of \\$${cap.toFixed(cap < 0.01 ? 6 : 2).replace(".", "\\.")};.*--run-usd`);
    },
  },
];

describe("run caps on a Pi-routed connector", () => {
  it.each(CASES)(
    "a looping model is stopped at the $cap cap: run_cap named, usage to the token",
    async (c) => {
      const first = c.answers === 1 ? await firstCallInput() : 0;
      server = await loopingStandin(c.answers);
      const { company, ceo } = await piCompany(server, c.caps(first), c.priced);
      const result = await wakeAgent({
        store,
        agentId: ceo.id,
        dataDir: dir,
        trigger: "start_team_building",
      });
      expect(result).toMatchObject({ terminal: "failed", stopReason: "run_cap" });
      expect(result.run.error).toMatch(c.error(first));
      expect(answered).toBe(c.answers);
      // No call past the cap reached the endpoint, not even one left unanswered.
      expect(served(server)).toHaveLength(c.answers);
      expect(server.modelCalls().filter((call) => findTool(call.request, "hire_agent"))).toHaveLength(
        c.answers,
      );
      const spent = served(server).reduce(add, NONE);
      expect(spent.input + spent.output).toBeGreaterThan(0);
      expect(result.usage).toEqual(spent);
      expect(result.run.usage).toEqual(spent);
      const calls = await store.listModelCalls(result.run.id);
      expect(calls).toHaveLength(c.answers);
      expect(calls.map((call) => call.usage).reduce(add, NONE)).toEqual(spent);
      if (c.priced) expect(calls.every((call) => call.costUsd !== null && call.costUsd > 0)).toBe(true);
      // `cadre usage --run` reads the same calls.
      expect((await runUsageReport(store, result.run.id)).turns).toHaveLength(c.answers);
      // Nothing the loop asked for was written.
      expect((await store.listAgents(company.id)).filter((a) => !a.isCeo)).toHaveLength(0);
    },
    90_000,
  );
});
