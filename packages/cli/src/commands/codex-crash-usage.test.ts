// A Codex run lost with its process keeps what Codex spent — the REAL Codex binary against a
// loopback @cadre/standin server (offline). `cadre wake` runs in a child process; when the model's
// third call arrives the stand-in kills that process (SIGKILL: nothing of it runs again), then
// answers the call, so Codex — still running — records the answer in its rollout while no Cadre
// process is there to book it. The next call finds the process group killed (Codex and its tool
// server). The agent's next wake recovers the lost run and books the calls it missed from the
// rollout, against that run, to the token; reconciling again books nothing. Two runs lost, with a
// wake on another connector between them: each is reconciled, once, with its own calls only.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createCompany,
  INTERRUPTED_REASON,
  loadCompanyState,
  reconcileLostCodexRuns,
  recoverLostRuns,
  setAgentModel,
  wakeAgent,
} from "@cadre/company";
import { OFFLINE_MODEL_ID, type Usage } from "@cadre/core";
import { codexTestEnv, REAL_CODEX } from "@cadre/core/testing";
import { findTool, type ModelCall, reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

function sum(calls: readonly ModelCall[]): Usage {
  const t: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const call of calls) {
    const u = call.answered?.usage;
    if (!u) continue;
    t.input += u.input;
    t.output += u.output;
    t.cacheRead += u.cacheRead;
    t.cacheWrite += u.cacheWrite;
  }
  return t;
}

const usageOf = (rows: ReadonlyArray<{ usage: Usage }>): Usage =>
  rows.reduce(
    (t, r) => ({
      input: t.input + r.usage.input,
      output: t.output + r.usage.output,
      cacheRead: t.cacheRead + r.usage.cacheRead,
      cacheWrite: t.cacheWrite + r.usage.cacheWrite,
    }),
    { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  );

let dir: string;
let store: Store;
let server: StandinServer;
let child: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-crash-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  if (child?.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
  }
  await server?.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!REAL_CODEX)("a Codex run lost with its process (the real binary)", () => {
  it("the agent's next wake books the calls Codex made that the lost run had not, once, to the token", async () => {
    let crashed = false;
    let groupDead = false;
    let groupKilled!: () => void;
    const killed = new Promise<void>((resolve) => (groupKilled = resolve));
    server = await startStandin({
      policy: async (request, context) => {
        if (groupDead) return reply.text("Nothing more to do now. (stand-in)");
        if (crashed) {
          // The lost wake's Codex asks again: its whole process group goes (it never gets an answer).
          groupDead = true;
          process.kill(-child!.pid!, "SIGKILL");
          groupKilled();
          return reply.hang();
        }
        if (context.callIndex === 2) {
          // Cadre's process dies before this call is answered; Codex gets the answer all the same.
          process.kill(child!.pid!, "SIGKILL");
          crashed = true;
        }
        const hire = findTool(request, "hire_agent");
        return reply.toolCall(hire ?? "hire_agent", {
          name: `Lead ${context.callIndex}`,
          role: "Lead",
          description: "A lead the model keeps asking for.",
          connectorId: "no-such-connector",
          model: "no-such-model",
        });
      },
    });
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots.",
      connectors: [{ kind: "codex", config: { baseUrl: server.openaiBaseUrl } }],
      ceoConnectorId: "codex",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    const env = codexTestEnv(join(dir, "home"));
    child = spawn(
      process.execPath,
      [BIN, "wake", ceo.id, "--trigger", "start_team_building", "--data", dir],
      { env, detached: true, stdio: ["ignore", "ignore", "ignore"] },
    );
    // A Codex that makes no further call once Cadre's process is gone (its tool call may wait on the
    // dead tool server) has its group killed all the same, once it had time to record the answer.
    child.once("exit", () => {
      const timer = setTimeout(() => {
        if (groupDead) return;
        groupDead = true;
        try {
          process.kill(-child!.pid!, "SIGKILL");
        } catch {
          // the group is gone already
        }
        groupKilled();
      }, 10_000);
      void killed.then(() => clearTimeout(timer));
    });
    await killed;
    const lostCalls = server.modelCalls().filter((c) => c.answered?.usage);
    expect(lostCalls).toHaveLength(3);
    const [lost] = await store.listRuns({ agentId: ceo.id });
    expect(lost?.status).toBe("running");
    // What the lost process booked before it died: fewer calls than Codex made.
    const bookedBefore = await store.listModelCalls(lost!.id);
    expect(bookedBefore.length).toBeLessThan(3);

    // The next wake recovers the lost run and books what Codex's rollout says it spent.
    const next = await wakeAgent({
      store,
      agentId: ceo.id,
      dataDir: dir,
      env,
      cadreCommand: [process.execPath, BIN],
    });
    const ended = await store.getRun(lost!.id);
    expect(ended).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    const calls = await store.listModelCalls(lost!.id);
    expect(calls).toHaveLength(3);
    expect(usageOf(calls)).toEqual(sum(lostCalls));
    expect(ended!.usage).toEqual(sum(lostCalls));
    // The next wake counted only its own calls.
    const own = server.modelCalls().filter((c) => c.answered?.usage && !lostCalls.includes(c));
    expect(next.usage).toEqual(sum(own));
    const activity = await store.listActivity(company.id, { type: "usage.reconciled" });
    expect(activity).toHaveLength(1);
    expect(activity[0]!.data).toMatchObject({ calls: 3 - bookedBefore.length });

    // A second reconciliation finds the run checked: it books nothing.
    const again = await reconcileLostCodexRuns(store, {
      agent: ceo,
      session: { ...(await store.getAgentSession(ceo.id))!, lastRunId: lost!.id },
      env,
      before: new Date().toISOString(),
      prices: [],
    });
    expect(again).toEqual([]);
    expect(await store.listModelCalls(lost!.id)).toHaveLength(3);
    expect((await store.getRun(lost!.id))!.usage).toEqual(sum(lostCalls));
  }, 120_000);
});

describe.skipIf(!REAL_CODEX)("two Codex runs lost with their process (the real binary)", () => {
  it("each is reconciled once with its own calls, though a wake on another connector came between", async () => {
    // The stand-in's phases: a wake to crash (its third call kills Cadre's process, its fourth the
    // process group), or one that ends at once.
    let phase: { crash: boolean; calls: number; crashed: boolean; killed?: () => void } = {
      crash: false,
      calls: 0,
      crashed: false,
    };
    server = await startStandin({
      policy: async (request) => {
        const p = phase;
        if (!p.crash) return reply.text("Nothing more to do now. (stand-in)");
        if (p.crashed) {
          p.crash = false;
          process.kill(-child!.pid!, "SIGKILL");
          p.killed?.();
          return reply.hang();
        }
        if (p.calls++ === 2) {
          process.kill(child!.pid!, "SIGKILL");
          p.crashed = true;
        }
        const hire = findTool(request, "hire_agent");
        return reply.toolCall(hire ?? "hire_agent", {
          name: `Lead ${p.calls}`,
          role: "Lead",
          description: "A lead the model keeps asking for.",
          connectorId: "no-such-connector",
          model: "no-such-model",
        });
      },
    });
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots.",
      connectors: [
        { kind: "codex", config: { baseUrl: server.openaiBaseUrl } },
        { id: "rehearsal", kind: "offline", enabledModels: [OFFLINE_MODEL_ID] },
      ],
      ceoConnectorId: "codex",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    const env = codexTestEnv(join(dir, "home"));

    /** A `cadre wake` in a child process, lost at its third model call: the run and the calls Codex was answered. */
    async function lostWake(): Promise<{ runId: string; calls: ModelCall[] }> {
      const before = server.modelCalls().length;
      const killed = new Promise<void>((resolve) => {
        phase = { crash: true, calls: 0, crashed: false, killed: resolve };
      });
      const wake = spawn(process.execPath, [BIN, "wake", ceo.id, "--data", dir], {
        env,
        detached: true,
        stdio: ["ignore", "ignore", "ignore"],
      });
      child = wake;
      // A Codex that makes no further call once Cadre's process is gone (its tool call may wait on
      // the dead tool server) has its group killed all the same, once it had time to record the answer.
      wake.once("exit", () => {
        const timer = setTimeout(() => {
          if (!phase.crash) return;
          phase.crash = false;
          try {
            process.kill(-wake.pid!, "SIGKILL");
          } catch {
            // the group is gone already
          }
          phase.killed?.();
        }, 10_000);
        void killed.then(() => clearTimeout(timer));
      });
      await killed;
      const calls = server
        .modelCalls()
        .slice(before)
        .filter((c) => c.answered?.usage);
      expect(calls).toHaveLength(3);
      const runs = await store.listRuns({ agentId: ceo.id, status: "running" });
      expect(runs).toHaveLength(1);
      return { runId: runs[0]!.id, calls };
    }

    const first = await lostWake();
    // The operator moves the CEO to the offline connector: that wake recovers the lost Codex run and
    // reconciles it, though it runs no Codex itself.
    // (The lost run is recovered first, as the operator's next command does, which frees the session.)
    await recoverLostRuns(store);
    await setAgentModel(store, { agentId: ceo.id, model: OFFLINE_MODEL_ID, connectorId: "rehearsal" });
    await wakeAgent({ store, agentId: ceo.id, dataDir: dir, env });
    expect(await store.getRun(first.runId)).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    expect(usageOf(await store.listModelCalls(first.runId))).toEqual(sum(first.calls));

    // Back on Codex, a second run is lost; the next wake reconciles it with its own calls only.
    await setAgentModel(store, { agentId: ceo.id, model: ceo.model, connectorId: "codex" });
    const second = await lostWake();
    const before = server.modelCalls().length;
    const next = await wakeAgent({
      store,
      agentId: ceo.id,
      dataDir: dir,
      env,
      cadreCommand: [process.execPath, BIN],
    });
    for (const lost of [first, second]) {
      const run = await store.getRun(lost.runId);
      expect(run).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
      const calls = await store.listModelCalls(lost.runId);
      expect(calls).toHaveLength(3);
      expect(usageOf(calls)).toEqual(sum(lost.calls));
      expect(run!.usage).toEqual(sum(lost.calls));
    }
    expect(next.usage).toEqual(sum(server.modelCalls().slice(before)));
    // Each lost run checked once: one row each, and a further wake books nothing more.
    const rows = await store.listActivity(company.id, { type: "usage.reconciled" });
    expect(rows.map((r) => r.runId).sort()).toEqual([first.runId, second.runId].sort());
    await wakeAgent({ store, agentId: ceo.id, dataDir: dir, env, cadreCommand: [process.execPath, BIN] });
    expect(await store.listActivity(company.id, { type: "usage.reconciled" })).toHaveLength(2);
    for (const lost of [first, second]) expect(await store.listModelCalls(lost.runId)).toHaveLength(3);
  }, 240_000);
});
