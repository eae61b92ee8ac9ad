// Every wake holds a lease on its agent (in-process wakes too, not only the queue's): one running
// wake per agent, whatever the process; the usage of each completed model call on the run row as
// it completes; a cancelled run recorded once with its reason; a wake in the way whose process is
// gone recovered rather than refused.
import { spawnSync } from "node:child_process";
import type { StreamFn } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "./companies.js";
import { thisProcess } from "./recovery/processes.js";
import { loadCompanyState } from "./state.js";
import { AgentBusyError, wakeAgent } from "./wake.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function ceoOf() {
  const company = await createCompany(store, { name: "Acme", goal: "Robots for warehouses." });
  return { company, ceo: (await loadCompanyState(store, company.id)).ceo };
}

/** Holds the session's model call number `index` (from 0) until released. */
function holdCall(index: number) {
  let calls = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const wrap =
    (inner: StreamFn): StreamFn =>
    async (...args) => {
      if (calls++ === index) {
        reached();
        await released;
      }
      return inner(...args);
    };
  return { wrap, held, release };
}

function usageOfEvents(events: Array<{ type: string; data: unknown }>) {
  const u = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const e of events.filter((x) => x.type === "usage")) {
    const v = (e.data as { usage: { input: number; output: number; cacheRead: number; cacheWrite: number } })
      .usage;
    u.input += v.input;
    u.output += v.output;
    u.cacheRead += v.cacheRead;
    u.cacheWrite += v.cacheWrite;
  }
  return u;
}

describe("a wake's lease", () => {
  it("runs one wake per agent: a second one at the same time is refused, writing nothing, and nothing is hired twice", async () => {
    const { company, ceo } = await ceoOf();
    const hold = holdCall(1);
    const first = wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      seed: 3,
      wrapStreamFn: hold.wrap,
    });
    await hold.held;
    const before = await store.counts();
    // A routine wake: "start team building" is no longer offered once the first hire is made.
    const second = wakeAgent({ store, agentId: ceo.id, seed: 3 });
    await expect(second).rejects.toBeInstanceOf(AgentBusyError);
    await expect(second).rejects.toThrow(
      /is already running run run_\w+ \(process \d+ on .*\); one wake per agent/,
    );
    expect(await store.counts()).toEqual(before);
    hold.release();
    expect((await first).terminal).toBe("done");
    const names = (await store.listAgents(company.id)).filter((a) => !a.isCeo).map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    expect(await store.listRuns({ agentId: ceo.id })).toHaveLength(1);
    // Released with the run's end: the agent can be woken again.
    expect((await wakeAgent({ store, agentId: ceo.id })).terminal).toBe("done");
  });

  it("recovers a wake in the way whose process is gone, then runs", async () => {
    const { ceo } = await ceoOf();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    await store.claimWake({
      id: "stale",
      companyId: ceo.companyId,
      agentId: ceo.id,
      workerId: "dead",
      leaseUntil: new Date(Date.now() + 60_000).toISOString(),
      owner: { host: thisProcess().host, pid: Number(dead.stdout), started: "long ago" },
    });
    const result = await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building" });
    expect(result.terminal).toBe("done");
    expect(await store.getWake("stale")).toMatchObject({ status: "retrying" });
  });

  it("puts the usage of every completed model call on the run row while the run goes on", async () => {
    const { ceo } = await ceoOf();
    const hold = holdCall(2);
    let runId = "";
    const wake = wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      seed: 4,
      wrapStreamFn: hold.wrap,
      onStart: ({ run }) => (runId = run.id),
    });
    await hold.held;
    // Two model calls have completed; the third is being asked.
    const events = await store.listRunEvents(runId);
    expect(events.filter((e) => e.type === "usage")).toHaveLength(2);
    const run = (await store.getRun(runId))!;
    expect(run.status).toBe("running");
    expect(run.usage).toEqual(usageOfEvents(events));
    expect(run.usage.output).toBeGreaterThan(0);
    hold.release();
    const result = await wake;
    expect((await store.getRun(runId))!.usage).toEqual(usageOfEvents(await store.listRunEvents(runId)));
    expect(result.usage.input).toBe((await store.getRun(runId))!.usage.input);
  });

  it("ends a cancelled run once, with the abort's reason and the usage so far, and releases the agent", async () => {
    const { ceo } = await ceoOf();
    const hold = holdCall(1);
    const controller = new AbortController();
    const wake = wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      signal: controller.signal,
      wrapStreamFn: hold.wrap,
    });
    await hold.held;
    controller.abort("cancelled by SIGINT");
    hold.release();
    const result = await wake;
    expect(result.terminal).toBe("cancelled");
    const events = await store.listRunEvents(result.run.id);
    const terminals = events.filter((e) => e.type === "terminal");
    expect(terminals).toHaveLength(1);
    expect(terminals[0]!.data).toEqual({
      type: "terminal",
      status: "cancelled",
      reason: "cancelled by SIGINT",
    });
    expect(result.run).toMatchObject({ status: "cancelled", error: "cancelled by SIGINT" });
    expect(result.run.usage).toEqual(usageOfEvents(events));
    expect(result.run.usage.input).toBeGreaterThan(0);
    expect(await store.listRunningWakes()).toEqual([]);
  });
});
