// A run's lease records its owner as host + pid + start time: a pid that is alive but
// runs another process now (the owner died, the pid was reused) is a lost owner, and its run is
// recovered; a process group whose leader's pid was reused is never signalled (it is unrelated).
// Checked with real processes: a live `sleep` holding the pid, recorded with another start time.
import { spawn } from "node:child_process";
import { openStore, type ProcessOwner, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { killProcessGroup, processStart, processState, thisProcess } from "./processes.js";
import { INTERRUPTED_REASON, recoverLostRuns } from "./recover.js";

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

/** A live process (its own group), recorded as the process that held its pid before: another start. */
function reusedPid(): { live: ProcessOwner; recorded: ProcessOwner } {
  const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  child.unref();
  leftovers.push(child.pid!);
  const live = { host: thisProcess().host, pid: child.pid!, started: processStart(child.pid!)! };
  return { live, recorded: { ...live, started: `${live.started}-earlier` } };
}

describe("an owner's pid reused by another process", () => {
  it("is a lost owner: its run is recovered; the process now holding the pid is left alone", async () => {
    const { live, recorded } = reusedPid();
    expect(processState(live)).toBe("alive");
    expect(processState(recorded)).toBe("gone");

    const company = await createCompany(store, { name: "Acme" });
    const { ceo } = await loadCompanyState(store, company.id);
    const claimed = await store.claimWake({
      id: "wake-1",
      companyId: company.id,
      agentId: ceo.id,
      workerId: "holder",
      // A lease still running: only the owner's identity says it is gone.
      leaseUntil: new Date(Date.now() + 3_600_000).toISOString(),
      owner: recorded,
    });
    expect(claimed.outcome).toBe("claimed");
    await store.insertRun({
      id: "run-1",
      companyId: company.id,
      agentId: ceo.id,
      trigger: "routine",
      mode: "team-building",
      profile: "semantic",
      cue: "go",
    });
    await store.setWakeRun("wake-1", "holder", "run-1");
    // The run's own process group, recorded with the same (reused) identity.
    await store.insertRunProcess({ runId: "run-1", ...recorded });

    const recovery = await recoverLostRuns(store);
    expect(recovery.runs).toEqual([expect.objectContaining({ runId: "run-1", processesKilled: 0 })]);
    expect(await store.getRun("run-1")).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    // The unrelated process that has the pid now was not signalled.
    expect(killProcessGroup(recorded)).toBe(false);
    expect(processState(live)).toBe("alive");
  });
});
