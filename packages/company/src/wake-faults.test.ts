// Failure rehearsal through the real wake runner, store and offline CEO (`--faults`): what an
// operator sees happen to the company when a provider misbehaves (MC-9, MC-10, MC-11, MC-14).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentEvent, contextReportOf, UserInputError } from "@cadre/core";
import type { FaultName } from "@cadre/core/offline";
import { openStore, type Store } from "@cadre/store";
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "./companies.js";
import { loadCompanyState } from "./state.js";
import { wakeAgent } from "./wake.js";

let standin: StandinServer;
beforeAll(async () => {
  standin = await startStandin({ policy: echo });
});
afterAll(async () => standin.close());

let store: Store;
let dataDir: string;
beforeEach(async () => {
  store = await openStore({ memory: true });
  dataDir = await mkdtemp(join(tmpdir(), "cadre-faults-"));
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function rehearse(faults: FaultName[], seed = 7) {
  const company = await createCompany(store, {
    name: "Acme Robotics",
    goal: "Build warehouse robots and sell them to logistics companies.",
  });
  const { ceo } = await loadCompanyState(store, company.id);
  const result = await wakeAgent({
    store,
    agentId: ceo.id,
    trigger: "start_team_building",
    seed,
    faults,
    dataDir,
  });
  const stored = (await store.listRunEvents(result.run.id)).map((r) => r.data as AgentEvent);
  const hires = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
  const hired = await store.listActivity(company.id, { type: "agent.hired" });
  const approvals = await store.listApprovals(company.id);
  return { result, stored, hires, hired, approvals, report: contextReportOf(stored), ceo };
}

/** The CEO's next wake, without faults: what the first one left for it. */
async function nextWake(ceoId: string) {
  const result = await wakeAgent({ store, agentId: ceoId, seed: 8, dataDir });
  const stored = (await store.listRunEvents(result.run.id)).map((r) => r.data as AgentEvent);
  return { result, stored, report: contextReportOf(stored) };
}

describe("--faults through the wake runner (offline connector)", () => {
  it("MC-10 overflow-after-tool: no replay, one failed terminal, still exactly one agent row from that hire", async () => {
    const { result, stored, hires, hired, approvals, report } = await rehearse(["overflow-after-tool"]);
    expect(result).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    expect(result.run.status).toBe("failed");
    expect(stored.filter((e) => e.type === "terminal")).toHaveLength(1);
    expect(hires).toHaveLength(1);
    expect(hired).toHaveLength(1);
    expect(approvals).toEqual([]);
    expect(report.recoveries).toEqual([
      {
        action: "fail-closed",
        reason: "context overflow, not replayed: the turn had tool side effects",
      },
    ]);
  });

  it("MC-10 overflow-before-output: exactly one wire-only replay; the run ends done with a normal team", async () => {
    const { result, hires, approvals, report } = await rehearse(["overflow-before-output"]);
    expect(result).toMatchObject({
      terminal: "done",
      replays: 1,
      rollovers: 0,
      modeAfter: "awaiting-approval",
    });
    expect(hires.length).toBeGreaterThanOrEqual(3);
    expect(new Set(hires.map((h) => h.department)).size).toBe(hires.length);
    expect(approvals.map((a) => a.status)).toEqual(["pending"]);
    expect(report.snapshot).toMatchObject({ replays: 1, needsRollover: false });
  });

  it("MC-9 compact-empty-summary: Pi's compaction after the turn gets an empty summary → deterministic → latch; the next wake starts a fresh session from the handoff (rollovers = 1); no hire is made twice", async () => {
    const { result, hires, approvals, report, ceo } = await rehearse(["compact-empty-summary"]);
    // Pi compacts when a run ends: the turn itself is done, the latch waits for the next send.
    expect(result).toMatchObject({
      terminal: "done",
      replays: 0,
      rollovers: 0,
      modeAfter: "awaiting-approval",
    });
    expect(new Set(hires.map((h) => h.department)).size).toBe(hires.length);
    expect(hires.length).toBeGreaterThanOrEqual(3);
    const payload = approvals[0]!.payload;
    for (const h of hires) expect(payload.split(`${h.name} (`).length - 1).toBe(1);
    expect(report.compactions).toMatchObject([
      { reason: "threshold", ok: false, error: "the compaction returned an empty summary" },
    ]);
    expect(report.snapshot).toMatchObject({
      needsRollover: true,
      latchReason: "pi/silent: compaction produced an empty summary",
      lastCompaction: { result: "deterministic" },
    });
    // The latched window was closed at the end of the turn; its handoff waits in the agent's session.
    const row = await store.getAgentSession(ceo.id);
    expect(row).toMatchObject({ sessionId: null, previousSessionId: result.session.id, runningRunId: null });
    expect(row!.bootstrap).toMatchObject({ fromSession: result.session.id });
    const next = await nextWake(ceo.id);
    expect(next.result).toMatchObject({ terminal: "done", rollovers: 1 });
    expect(next.result.session).toMatchObject({ harness: "pi", resumed: false, rolledOver: true });
    expect(next.result.session.id).not.toBe(result.session.id);
    expect(next.report.rollovers).toMatchObject([
      {
        reason: "idle direct send: needsRollover latched (pi/silent: compaction produced an empty summary)",
        fromSession: result.session.id,
        toSession: next.result.session.id,
      },
    ]);
    expect(next.report.snapshot).toMatchObject({ needsRollover: false, rollovers: 1 });
    expect((await store.listAgents(ceo.companyId)).filter((a) => !a.isCeo)).toHaveLength(hires.length);
    expect(await store.getAgentSession(ceo.id)).toMatchObject({
      sessionId: next.result.session.id,
      rolledOver: true,
      bootstrap: null,
      previousSessionId: result.session.id,
    });
  });

  it("MC-9 compact-overloaded: transient, no latch, no rollover; Pi retries the compaction natively at the next wake's send, on the same session, and it succeeds", async () => {
    const { result, report, ceo } = await rehearse(["compact-overloaded"]);
    expect(result).toMatchObject({ terminal: "done", replays: 0, rollovers: 0 });
    expect(report.compactions.map((c) => c.ok)).toEqual([false]);
    expect(report.snapshot).toMatchObject({ needsRollover: false, lastCompaction: { result: "transient" } });
    const next = await nextWake(ceo.id);
    expect(next.result).toMatchObject({ terminal: "done", rollovers: 0 });
    expect(next.result.session).toMatchObject({ id: result.session.id, resumed: true, rolledOver: false });
    expect(next.report.compactions).toMatchObject([{ reason: "threshold", ok: true }]);
    expect(next.report.snapshot).toMatchObject({ needsRollover: false, lastCompaction: { result: "ok" } });
  });

  it.each([["timeout"], ["stream-cut"]] as const)(
    "MC-11 %s: failed terminal, no replay, no rollover, nothing hired",
    async (fault) => {
      const { result, stored, hires, report } = await rehearse([fault]);
      expect(result).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
      expect(stored.filter((e) => e.type === "error")).toHaveLength(1);
      expect(stored.filter((e) => e.type === "terminal")).toHaveLength(1);
      expect(hires).toEqual([]);
      expect(report.recoveries.map((r) => r.action)).toEqual(["fail-closed"]);
    },
  );

  it("refuses faults on a connector that is not offline, before any run is written", async () => {
    const company = await createCompany(store, {
      name: "Beta",
      goal: "Software",
      connectors: [
        {
          id: "anthropic",
          kind: "anthropic",
          enabledModels: ["claude-sonnet-4-5-20250929"],
          // A ready connector: its endpoint (the loopback stand-in, speaking Anthropic's wire) answers.
          config: { apiKeyEnv: "PATH", baseUrl: standin.url },
        },
      ],
      ceoConnectorId: "anthropic",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    await expect(wakeAgent({ store, agentId: ceo.id, faults: ["timeout"] })).rejects.toThrow(UserInputError);
    await expect(wakeAgent({ store, agentId: ceo.id, faults: ["timeout"] })).rejects.toThrow(
      /offline connector only/,
    );
    expect(await store.listRuns({ agentId: ceo.id })).toEqual([]);
  });

  it("without faults a wake reports no replay and no rollover, and stores its context snapshot for inspection", async () => {
    const { result, report } = await rehearse([]);
    expect(result).toMatchObject({ terminal: "done", replays: 0, rollovers: 0 });
    expect(report.snapshot).toMatchObject({
      harness: "pi",
      threshold: 0.9,
      reserveTokens: 12_800,
      compactionOwner: "pi",
      sessionId: result.session.id,
      openClaims: [],
      needsRollover: false,
    });
  });

  it("MC-11 prompt-timeout: failed, no replay, the latch set; the next wake starts from the handoff", async () => {
    const { result, report, ceo } = await rehearse(["prompt-timeout"]);
    expect(result).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    expect(report.snapshot).toMatchObject({
      needsRollover: true,
      latchReason: expect.stringMatching(/^Pi prompt timeout/),
    });
    const next = await nextWake(ceo.id);
    expect(next.result).toMatchObject({ rollovers: 1 });
    expect(next.result.session.rolledOver).toBe(true);
    expect(next.report.rollovers[0]!.reason).toMatch(
      /^idle direct send: needsRollover latched \(Pi prompt timeout/,
    );
  });
});
