// A wake reason is served or explicitly cancelled, never lost (OP-5). A `cadre run`
// SIGKILLed while the CEO works its `approval_decided` wake — no task checked out yet — leaves that
// request taken by a run recovery ends; the next `cadre run` must find it due again and serve it,
// once. The CEO runs on an OFFLINE @cadre/standin server (the Chat Completions wire) that leaves its
// first call hanging, so that the kill lands while the run is under way.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERRUPTED_REASON } from "@cadre/company";
import { reply } from "@cadre/standin";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approvedStandinCompany } from "./testing/approved-company.js";
import { startWatchedStandin, type WatchedStandin } from "./testing/standin-model.js";
import { cliEnv, runCliProcess, startCli } from "./testing/spawn-cli.js";

let dir: string;
let standIn: WatchedStandin;
let holding: boolean;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-wake-durable-"));
  holding = true;
  standIn = await startWatchedStandin(() =>
    holding ? reply.hang() : reply.text("Noted: the plan is approved."),
  );
});
afterEach(async () => {
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

const approvedCompany = () => approvedStandinCompany(dir, standIn.baseUrl);

describe("a SIGKILL while a wake with no task runs", () => {
  it("gives the wake's reason back to pending; the next cadre run serves it once", async () => {
    const { ceo, requestId } = await approvedCompany();
    const first = startCli(["run", "--until-idle", "--data", dir], cliEnv());
    await standIn.modelCalls(1);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    holding = false;
    const second = await runCliProcess(["run", "--until-idle", "--json", "--data", dir], cliEnv());
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/recovered run .*the process running it stopped/);
    const report = JSON.parse(second.stdout) as {
      wakes: Array<{ agentId: string; trigger: string; terminal: string; requests: number }>;
      idle: boolean;
    };
    expect(report.wakes.map((w) => [w.agentId, w.trigger, w.terminal])).toEqual([
      [ceo, "approval_decided", "done"],
    ]);
    expect(report.idle).toBe(true);

    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const runs = await store.listRuns({ agentId: ceo });
      expect(runs.map((r) => [r.status, r.trigger, r.error])).toEqual([
        ["failed", "approval_decided", INTERRUPTED_REASON],
        ["done", "approval_decided", null],
      ]);
      // The one request, given back once by recovery, then taken by the run that finished.
      const requests = await store.listWakeRequests({ agentId: ceo });
      expect(requests.map((r) => [r.id, r.status, r.runId, r.returns])).toEqual([
        [requestId, "taken", runs[1]!.id, 1],
      ]);
      const returned = await store.listActivity(runs[0]!.companyId, { type: "wake.returned" });
      expect(returned.map((a) => [a.runId, (a.data as { requestId: string }).requestId])).toEqual([
        [runs[0]!.id, requestId],
      ]);
      expect(await store.listRuns({ status: "running" })).toEqual([]);
    } finally {
      await store.close();
    }
  }, 180_000);
});
