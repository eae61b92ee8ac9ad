// Two wakes at once against a budget that allows exactly one more model call
// — two `cadre wake` processes on one SQLite store, two queue workers on PostgreSQL. Both agents run
// on an `openai-compatible` connector pointed at a @cadre/standin server (OFFLINE, the real Chat
// Completions wire). Deterministic, not timed: the stand-in holds the first model call it receives
// until the other run has ended, so whichever run reserved first has its call in flight while the
// other tries to reserve — and is refused. Exactly one call reaches the model; the other run ends
// failed/budget; recorded spend never exceeds the limit; the wake queued behind them is cancelled.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addConnector,
  budgetReport,
  createCompany,
  decideApproval,
  loadCompanyState,
  setAgentModel,
  setBudget,
  wakeAgent,
} from "@cadre/company";
import { type Policy, reply, startStandin, type StandinServer } from "@cadre/standin";
import { WakeQueue, type WakeOutcome, WakeWorker } from "@cadre/server";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../store/src/testing/postgres.js";
import { cliEnv, startCli } from "./testing/spawn-cli.js";
import { STANDIN_MODEL } from "./testing/standin-model.js";

afterAll(dropTestSchemas);

/**
 * Room for one member's first call, not for two: a call reserves its input (~800 tokens estimated
 * for a member's first call) and up to the model's 4,096 output tokens, capped to the room left —
 * so the first reservation takes all of it (and any input up to 2,744 tokens still fits).
 */
const ROOM = 3_000;

interface HoldingStandin {
  server: StandinServer;
  baseUrl: string;
  /** Resolves once the first model call has arrived (it is held, unanswered). */
  firstArrived: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

/** A stand-in that answers "Done." and holds its first call, unanswered, until `release()`. */
async function holdingStandin(): Promise<HoldingStandin> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived: () => void = () => {};
  const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
  const policy: Policy = async (_request, context) => {
    if (context.callIndex === 0) {
      arrived();
      await released;
    }
    return reply.text("Done.");
  };
  const server = await startStandin({ policy });
  return { server, baseUrl: server.openaiBaseUrl, firstArrived, release, close: () => server.close() };
}

/**
 * A company in operating mode (offline CEO: team hired, strategy approved) whose first two members
 * run on the stand-in, with a token budget that leaves exactly ROOM tokens.
 */
async function companyOnStandin(store: Store, baseUrl: string) {
  const company = await createCompany(store, { name: "Acme Robotics", goal: "Build warehouse robots." });
  const { ceo } = await loadCompanyState(store, company.id);
  await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
  const [strategy] = await store.listApprovals(company.id);
  await decideApproval(store, strategy!.id, "approve", null);
  await addConnector(store, company.id, {
    id: "local",
    kind: "openai-compatible",
    config: { baseUrl, models: [{ id: STANDIN_MODEL, contextWindow: 128_000, maxOutput: 4096 }] },
  });
  const members = (await store.listAgents(company.id)).filter((a) => !a.isCeo).slice(0, 2);
  expect(members).toHaveLength(2);
  for (const m of members)
    await setAgentModel(store, { agentId: m.id, model: STANDIN_MODEL, connectorId: "local" });
  const used = (await budgetReport(store, { companyId: company.id })).budget.used.tokens;
  const limit = used + ROOM;
  await setBudget(store, { companyId: company.id }, { tokens: limit });
  return { company, ceo, members, used, limit };
}

async function expectOneCallWithinLimit(
  store: Store,
  companyId: string,
  memberIds: readonly string[],
  limit: number,
): Promise<{ winner: string; loser: string }> {
  const runs = (await store.listRuns({ companyId })).filter((r) => memberIds.includes(r.agentId));
  expect(runs).toHaveLength(2);
  const calls = await Promise.all(runs.map((r) => store.listModelCalls(r.id)));
  expect(calls.map((c) => c.length).sort()).toEqual([0, 1]);
  const loser = runs.find((_, i) => calls[i]!.length === 0)!;
  const winner = runs.find((_, i) => calls[i]!.length === 1)!;
  expect(loser).toMatchObject({ status: "failed", stopReason: "budget" });
  expect(loser.error).toMatch(/monthly budget of company .* is exhausted: .*cadre budgets set --company/);
  const report = await budgetReport(store, { companyId });
  expect(report.budget.used.tokens).toBeLessThanOrEqual(limit);
  expect(report.budget.state).toBe("exhausted");
  return { winner: winner.agentId, loser: loser.agentId };
}

describe("two concurrent wakes against room for exactly one more model call", () => {
  let dir: string;
  let standin: HoldingStandin;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cadre-budget-race-"));
    standin = await holdingStandin();
  });
  afterEach(async () => {
    standin.release();
    await standin.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("two `cadre wake` processes on one SQLite store: one call happens, the other run ends failed/budget", async () => {
    const path = join(dir, "cadre.db");
    let store = await openStore({ path });
    const setup = await companyOnStandin(store, standin.baseUrl);
    await store.close();

    const wakes = setup.members.map((m) => startCli(["wake", m.id, "--json", "--data", dir], cliEnv()));
    // The first call is held at the stand-in; the other process ends first (refused at its reservation).
    await standin.firstArrived;
    const first = await Promise.race(wakes.map((w, i) => w.exited.then((e) => ({ e, i }))));
    standin.release();
    const ended = await Promise.all(wakes.map((w) => w.exited));

    expect(standin.server.modelCalls()).toHaveLength(1);
    const loserOut = JSON.parse(first.e.stdout.trim().split("\n").at(-1)!);
    expect(first.e.code, first.e.stderr).toBe(1);
    expect(loserOut).toMatchObject({ terminal: "failed", stopReason: "budget" });
    expect(loserOut.usage).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    const winnerExit = ended[1 - first.i]!;
    expect(JSON.parse(winnerExit.stdout.trim().split("\n").at(-1)!).usage.outputTokens).toBeGreaterThan(0);

    store = await openStore({ path });
    try {
      const { loser } = await expectOneCallWithinLimit(
        store,
        setup.company.id,
        setup.members.map((m) => m.id),
        setup.limit,
      );
      expect(loser).toBe(setup.members[first.i]!.id);
      // A new wake is refused before it starts, naming the budget, its use and how to raise it.
      const again = await startCli(["wake", setup.ceo.id, "--data", dir], cliEnv()).exited;
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(
        /cannot wake: the monthly budget of company \S+ is exhausted: \d+ of \d+ tokens used or reserved.*; raise it with `cadre budgets set --company \S+ --tokens N` \(run run_\w+ was stopped at .*; used now: \d+ of \d+ tokens/,
      );
    } finally {
      await store.close();
    }
  }, 120_000);

  it("two queue workers on PostgreSQL: one call happens, the other run ends failed/budget, the wake queued behind them is cancelled", async () => {
    const schema = freshSchema();
    const store = await openStore({ url: testDatabaseUrl(), schema, poolSize: 4 });
    const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const queueSchema = `pgboss_${schema}`.slice(0, 50);
    const outcomes: WakeOutcome[] = [];
    let firstOutcome: () => void = () => {};
    const firstEnded = new Promise<void>((resolve) => (firstOutcome = resolve));
    const workers: WakeWorker[] = [];
    let queue: WakeQueue | undefined;
    try {
      const setup = await companyOnStandin(store, standin.baseUrl);
      for (const id of ["w1", "w2"])
        workers.push(
          await WakeWorker.start({
            url,
            queue: { schema: queueSchema },
            workerId: id,
            pollMs: 100,
            dataDir: dir,
            env: cliEnv(),
            log: () => {},
            onOutcome: (o) => {
              outcomes.push(o);
              firstOutcome();
            },
          }),
        );
      queue = await WakeQueue.open({ url, schema: queueSchema, supervise: false, log: () => {} });
      for (const m of setup.members) await queue.enqueue({ agentId: m.id });
      // The first call is held: one worker is busy with it; the other's run is refused and ends.
      await standin.firstArrived;
      await firstEnded;
      // A wake queued now, behind the stop, never starts: cancelled with reason budget.
      await queue.enqueue({ agentId: setup.ceo.id });
      standin.release();
      while (outcomes.length < 3) await new Promise((r) => setTimeout(r, 50));

      expect(standin.server.modelCalls()).toHaveLength(1);
      await expectOneCallWithinLimit(
        store,
        setup.company.id,
        setup.members.map((m) => m.id),
        setup.limit,
      );
      const ceoWake = outcomes.find((o) => o.agentId === setup.ceo.id);
      expect(ceoWake).toMatchObject({ outcome: "cancelled" });
      expect(ceoWake?.error).toMatch(/^budget: .*exhausted/);
      expect(await store.listRuns({ companyId: setup.company.id, agentId: setup.ceo.id })).toHaveLength(1);
      expect(await queue.pending()).toBe(0);
    } finally {
      standin.release();
      await queue?.stop();
      for (const w of workers) await w.stop(5_000);
      await store.close();
    }
  }, 120_000);
});
