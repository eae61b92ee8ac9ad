// A live run — the CEO on an `openai-compatible` connector pointed at a
// @cadre/standin server (OFFLINE: scripted answers on the real Chat Completions wire, its usage
// counted by the stand-in) — with the company's own price for the stand-in's model
// (`cadre budgets price`). A USD budget stops the run at the right call: the first one whose
// reservation (its input and at least 256 output tokens at the price) no longer fits. And the cost
// `cadre usage` shows equals the recorded usage × the price, to the cent, computed here.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hireLeads, type Policy, startStandin, type StandinServer } from "@cadre/standin";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";
import { STANDIN_MODEL } from "../testing/standin-model.js";

// USD per million tokens: dear enough that each call costs cents.
const PRICE = { input: 20, output: 80, cacheRead: 2, cacheWrite: 25 };

// One stand-in per company: its prompt cache (cache reads) is per server, as a vendor's is per account.
const standins: StandinServer[] = [];
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-budgets-live-"));
});
afterEach(async () => {
  for (const s of standins.splice(0)) await s.close();
  await rm(dir, { recursive: true, force: true });
});

interface Call {
  turn: number;
  model: string | null;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number | null };
}

const priced = (u: Call["usage"]) =>
  (u.input * PRICE.input +
    u.output * PRICE.output +
    u.cacheRead * PRICE.cacheRead +
    u.cacheWrite * PRICE.cacheWrite) /
  1e6;

/** A company whose CEO runs on the stand-in, with its own price for the stand-in's model. */
async function companyOnStandin(
  folder: string,
  policy: Policy = hireLeads(),
): Promise<{ data: string[]; ceo: string; standin: StandinServer }> {
  const standin = await startStandin({ policy });
  standins.push(standin);
  const name = "Acme Robotics";
  const data = ["--data", join(dir, folder)];
  const cli = (...argv: string[]) => runCli([...argv, ...data]);
  expect((await cli("company", "create", "--name", name)).code).toBe(0);
  const added = await cli(
    "connectors",
    "add",
    "local",
    "--kind",
    "openai-compatible",
    "--base-url",
    standin.openaiBaseUrl,
    "--models",
    STANDIN_MODEL,
    "--context-window",
    "128000",
  );
  expect(added.code, added.err).toBe(0);
  const ceo = ((await cli("agents", "list", "--json")).json() as Array<{ id: string; isCeo: boolean }>).find(
    (a) => a.isCeo,
  )!.id;
  expect((await cli("agents", "set-model", ceo, STANDIN_MODEL, "--connector", "local")).code).toBe(0);
  const price = await cli(
    "budgets",
    "price",
    "--model",
    STANDIN_MODEL,
    "--input",
    String(PRICE.input),
    "--output",
    String(PRICE.output),
    "--cache-read",
    String(PRICE.cacheRead),
    "--cache-write",
    String(PRICE.cacheWrite),
    "--json",
  );
  expect(price.code, price.err).toBe(0);
  expect(price.json().prices).toEqual([{ model: STANDIN_MODEL, since: expect.any(String), ...PRICE }]);
  // No per-run USD cap in the way: the company's USD budget is what stops the run.
  expect((await cli("budgets", "set", "--run-usd", "none")).code).toBe(0);
  return { data, ceo, standin };
}

async function callsOf(data: string[], runId: string): Promise<Call[]> {
  const report = await runCli(["usage", "--run", runId, "--json", ...data]);
  expect(report.code, report.err).toBe(0);
  return report.json().run.turns as Call[];
}

describe("a USD budget on a live run (stand-in model server, the company's price)", () => {
  it("stops the run at the right call, and `cadre usage` costs each call at usage × price, to the cent", async () => {
    // The same run with room to spare: what each call costs.
    const free = await companyOnStandin("calibration");
    const full = await runCli(["wake", free.ceo, "--trigger", "start_team_building", "--json", ...free.data]);
    expect(full.code, full.err).toBe(0);
    const all = await callsOf(free.data, full.json().runId);
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const c of all) {
      expect(c.model).toBe(STANDIN_MODEL);
      expect(c.usage.cost).toBeCloseTo(priced(c.usage), 9);
    }

    // A call is reserved before it is sent: its input as counted before the call (at the uncached
    // input price: cache hits are not known yet) and at least 256 output tokens — so call n is sent
    // only while limit − (the cost of the calls before it) ≥ need(n). The calibration's
    // reservations say what each call's input was counted as.
    const store = await openStore({ path: join(dir, "calibration", "cadre.db") });
    const reserved = await store.listModelCalls(full.json().runId);
    await store.close();
    const inputOf = (n: number) =>
      (reserved[n - 1]!.reservedTokens * PRICE.output - (reserved[n - 1]!.reservedUsd as number) * 1e6) /
      (PRICE.output - PRICE.input);
    const need = (n: number) => (inputOf(n) * PRICE.input + 256 * PRICE.output) / 1e6;
    const costBefore = (n: number) => all.slice(0, n - 1).reduce((sum, c) => sum + c.usage.cost!, 0);
    // The right call to stop at is the third: a limit halfway between "the second fits" and "the
    // third fits" (the gap is the second call's cost and the third's extra input).
    const { data, ceo, standin } = await companyOnStandin("acme");
    const lowest = costBefore(2) + need(2);
    const highest = costBefore(3) + need(3);
    expect(highest).toBeGreaterThan(lowest);
    const limit = Number(((lowest + highest) / 2).toFixed(6));
    const set = await runCli(["budgets", "set", "--usd", String(limit), "--json", ...data]);
    expect(set.code, set.err).toBe(0);
    const stopped = await runCli(["wake", ceo, "--trigger", "start_team_building", "--json", ...data]);
    expect(stopped.code).toBe(1);
    expect(stopped.json()).toMatchObject({ terminal: "failed", stopReason: "budget" });
    expect(stopped.err).toMatch(
      /the monthly budget of company \S+ is exhausted: \$[\d.]+ of \$[\d.]+ used or reserved/,
    );
    // Exactly two calls reached the model; the third was refused before it was sent.
    expect(standin.modelCalls()).toHaveLength(2);
    const calls = await callsOf(data, stopped.json().runId);
    expect(calls).toHaveLength(2);

    // The cost `cadre usage` shows is the recorded usage × the price, to the cent.
    const expected = calls.reduce((sum, c) => sum + priced(c.usage), 0);
    const usage = await runCli(["usage", "--json", ...data]);
    const shown = usage.json().companies[0].usage.cost as number;
    expect(Math.round(shown * 100)).toBe(Math.round(expected * 100));
    expect(shown).toBeCloseTo(expected, 9);
    expect(shown).toBeLessThanOrEqual(limit);
    const text = await runCli(["usage", ...data]);
    expect(text.out).toContain(`cost $${expected.toFixed(4)}`);
    // `budgets show` reports the same spend against the limit, exhausted.
    const budget = (await runCli(["budgets", "show", "--json", ...data])).json().budget;
    expect(budget).toMatchObject({ limitUsd: limit, state: "exhausted" });
    expect(budget.used.usd).toBeCloseTo(expected, 9);
    expect(budget.used.unpricedCalls).toBe(0);
  }, 120_000);

  it("a call served by another model than the one asked for is recorded, shown, and costs unknown — never the asked-for model's price", async () => {
    const served = "standin-chat-70b";
    const leads = hireLeads();
    // The endpoint answers as another model (as a router or a misconfigured server would).
    const policy: Policy = async (request, context) => {
      const answer = await leads(request, context);
      return answer.type === undefined || answer.type === "answer" ? { ...answer, model: served } : answer;
    };
    const { data, ceo } = await companyOnStandin("mismatch", policy);
    // Tokens limit as well as the default monthly $10: unpriced usage counts against the tokens.
    expect((await runCli(["budgets", "set", "--tokens", "100000", "--warn-at", "0.5", ...data])).code).toBe(
      0,
    );
    const woke = await runCli(["wake", ceo, "--trigger", "start_team_building", "--json", ...data]);
    expect(woke.code, woke.err).toBe(0);
    const calls = await callsOf(data, woke.json().runId);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const c of calls) {
      expect(c).toMatchObject({ model: served, requestedModel: STANDIN_MODEL });
      expect(c.usage.cost).toBeNull();
    }
    const text = await runCli(["usage", "--run", woke.json().runId, ...data]);
    expect(text.out).toContain(
      `, ${served} (asked for ${STANDIN_MODEL}: priced as the model that served it)`,
    );
    expect(text.out).toContain("cost unknown (no known price)");
    expect((await runCli(["usage", "--json", ...data])).json().companies[0].usage.cost).toBeNull();
    // The budget counts the tokens, and says its USD limit cannot be trusted.
    const budget = (await runCli(["budgets", "show", "--json", ...data])).json().budget;
    const tokens = calls.reduce(
      (sum, c) => sum + c.usage.input + c.usage.output + c.usage.cacheRead + c.usage.cacheWrite,
      0,
    );
    expect(budget.used).toMatchObject({ tokens, usd: 0, unpricedCalls: calls.length });
    expect(budget.state).toBe("warning");
    expect((await runCli(["budgets", "show", ...data])).out).toMatch(
      new RegExp(`${calls.length} call\\(s\\) of unknown cost — warning`),
    );
    const store = await openStore({ path: join(dir, "mismatch", "cadre.db") });
    try {
      const warned = await store.listActivity(budget.companyId, { type: "budget.warned" });
      expect(warned).toHaveLength(1);
      expect((warned[0]!.data as { message: string }).message).toMatch(
        /monthly budget of company \S+ cannot be trusted: \d+ model call\(s\) have no known price/,
      );
    } finally {
      await store.close();
    }
  }, 120_000);
});
