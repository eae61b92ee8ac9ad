// Recovery of runs whose process is gone: on this host a dead holder is seen at once (its pid no
// longer runs that process); elsewhere only its lease running out tells. A recovered run ends failed
// once, with its usage, its tokens revoked and the process groups it left killed; a live one is
// left alone; several recoverers at once end it once.
import { spawn, spawnSync } from "node:child_process";
import { openStore, type ProcessOwner, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { mintAgentToken } from "../agent-tokens.js";
import { loadCompanyState } from "../state.js";
import { processStart, processState, thisProcess } from "./processes.js";
import { INTERRUPTED_REASON, PROCESS_LOST_CODE, recoverLostRuns } from "./recover.js";

let store: Store;
const leftovers: number[] = [];
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await store.close();
});

/** The identity of a real process that has exited: its pid runs nothing (or something else) now. */
function deadProcess(): ProcessOwner {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return { host: thisProcess().host, pid: Number(child.stdout), started: "a start long ago" };
}

/** A detached process group (a long sleep), as the bash tool starts one; killed after the test. */
function processGroup(): ProcessOwner {
  const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  child.unref();
  leftovers.push(child.pid!);
  return { host: thisProcess().host, pid: child.pid!, started: processStart(child.pid!)! };
}

const usage = (input: number, output: number) => ({
  type: "usage",
  usage: { input, output, cacheRead: 0, cacheWrite: 0 },
});

/** A CEO run held by `owner` under a wake leased until `leaseUntil`, with two model calls stored. */
async function heldRun(owner: ProcessOwner | undefined, leaseUntil = new Date(Date.now() + 60_000)) {
  const company = await createCompany(store, { name: "Acme" });
  const { ceo } = await loadCompanyState(store, company.id);
  const wakeId = `wake-${ceo.id}`;
  const runId = `run-${ceo.id}`;
  const claimed = await store.claimWake({
    id: wakeId,
    companyId: company.id,
    agentId: ceo.id,
    workerId: "holder",
    leaseUntil: leaseUntil.toISOString(),
    ...(owner ? { owner } : {}),
  });
  expect(claimed.outcome).toBe("claimed");
  await store.insertRun({
    id: runId,
    companyId: company.id,
    agentId: ceo.id,
    trigger: "start_team_building",
    mode: "team-building",
    profile: "legacy",
    cue: "go",
  });
  await store.setWakeRun(wakeId, "holder", runId);
  const events = [{ type: "turn_start" }, usage(100, 20), { type: "tool_result" }, usage(50, 10)];
  await store.appendRunEvents(
    events.map((data, seq) => ({ runId, companyId: company.id, seq, type: data.type, data })),
  );
  const { token } = await mintAgentToken(store, { agentId: ceo.id, runId });
  return { company, ceo, wakeId, runId, token };
}

describe("recoverLostRuns", () => {
  it("ends a run whose process is gone from this host at once: failed once, usage, token revoked, its process group killed", async () => {
    const dead = deadProcess();
    expect(processState(dead)).toBe("gone");
    const { runId, wakeId } = await heldRun(dead);
    const group = processGroup();
    await store.insertRunProcess({ runId, ...group });
    expect(processState(group)).toBe("alive");

    const recovery = await recoverLostRuns(store);
    expect(recovery.runs).toEqual([
      expect.objectContaining({ runId, wakeId, tokensRevoked: 1, processesKilled: 1 }),
    ]);
    const run = (await store.getRun(runId))!;
    expect(run).toMatchObject({
      status: "failed",
      error: INTERRUPTED_REASON,
      usage: { input: 150, output: 30, cacheRead: 0, cacheWrite: 0 },
    });
    const events = await store.listRunEvents(runId);
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
    expect(events.at(-2)?.data).toMatchObject({ type: "error", code: PROCESS_LOST_CODE });
    expect(events.at(-1)?.data).toEqual({ type: "terminal", status: "failed", reason: INTERRUPTED_REASON });
    expect((await store.listApiTokens(run.agentId)).every((t) => t.revokedAt !== null)).toBe(true);
    expect(await store.getWake(wakeId)).toMatchObject({ status: "failed", owner: null });
    expect(await store.listRunProcesses(runId)).toEqual([]);
    // The group is gone: its leader no longer runs (the signal is delivered at once; reaping may lag).
    await expect.poll(() => processState(group)).toBe("gone");

    // A second pass finds nothing more to do.
    expect((await recoverLostRuns(store)).runs).toEqual([]);
  });

  it("leaves a run alone while its process lives on this host, even past its lease (stopped, not gone)", async () => {
    const { runId } = await heldRun(thisProcess());
    expect(await recoverLostRuns(store)).toEqual({ runs: [], wakes: [] });
    expect(await recoverLostRuns(store, { now: new Date(Date.now() + 3_600_000) })).toEqual({
      runs: [],
      wakes: [],
    });
    expect((await store.getRun(runId))?.status).toBe("running");
  });

  it("ends a run held on another host only once its lease has run out", async () => {
    const elsewhere = { host: "another-host", pid: process.pid, started: "x" };
    const leaseUntil = new Date(Date.now() + 30_000);
    const { runId } = await heldRun(elsewhere, leaseUntil);
    expect((await recoverLostRuns(store)).runs).toEqual([]);
    const later = new Date(leaseUntil.getTime() + 1);
    const recovery = await recoverLostRuns(store, { now: later });
    expect(recovery.runs.map((r) => r.runId)).toEqual([runId]);
    expect(recovery.runs[0]!.detail).toMatch(/stopped renewing its lease/);
    expect((await store.getRun(runId))?.status).toBe("failed");
  });

  it("keeps the terminal event a run stored before its process died", async () => {
    const { runId, company } = await heldRun(deadProcess());
    await store.appendRunEvents([
      { runId, companyId: company.id, seq: 4, type: "terminal", data: { type: "terminal", status: "done" } },
    ]);
    await recoverLostRuns(store);
    expect(await store.getRun(runId)).toMatchObject({ status: "done", error: null });
    expect((await store.listRunEvents(runId)).filter((e) => e.type === "terminal")).toHaveLength(1);
  });

  it("ends a run from before leases (running, held by no wake)", async () => {
    const company = await createCompany(store, { name: "Old Co" });
    const { ceo } = await loadCompanyState(store, company.id);
    await store.insertRun({
      id: "old",
      companyId: company.id,
      agentId: ceo.id,
      trigger: "routine",
      mode: "team-building",
      profile: "semantic",
      cue: "go",
    });
    const recovery = await recoverLostRuns(store);
    expect(recovery.runs).toEqual([expect.objectContaining({ runId: "old", wakeId: null })]);
    expect(await store.getRun("old")).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
  });

  it("ends a lost run exactly once when several processes recover at the same time", async () => {
    const { runId } = await heldRun(deadProcess());
    const passes = await Promise.all(Array.from({ length: 6 }, () => recoverLostRuns(store)));
    expect(passes.flatMap((p) => p.runs).map((r) => r.runId)).toEqual([runId]);
    expect((await store.listRunEvents(runId)).filter((e) => e.type === "terminal")).toHaveLength(1);
  });
});
