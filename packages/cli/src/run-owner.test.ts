// One owner of a company's due work. While a `cadre run --until-idle` is mid-run (its
// CEO's model call held open by an OFFLINE @cadre/standin server), a second one started on the same
// store does nothing: it names the process that is running it and exits 3 — never "nothing is
// due" / idle: true. Once the first has ended (Ctrl-C there), the next one serves the due wake.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  dir = await mkdtemp(join(tmpdir(), "cadre-run-owner-"));
  holding = true;
  standIn = await startWatchedStandin(() =>
    holding ? reply.hang() : reply.text("Noted: the plan is approved."),
  );
});
afterEach(async () => {
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

describe("two `cadre run --until-idle` on one company", () => {
  it("the second says which process runs the company's due work and exits 3; after the first ends, the next serves the wake", async () => {
    const { ceo, requestId } = await approvedStandinCompany(dir, standIn.baseUrl);
    const first = startCli(["run", "--until-idle", "--data", dir], cliEnv());
    await standIn.modelCalls(1);

    const second = await runCliProcess(["run", "--until-idle", "--json", "--data", dir], cliEnv());
    expect(second.code, second.stderr).toBe(3);
    expect(second.stderr).toContain(`process ${first.child.pid} on this machine`);
    expect(second.stderr).toMatch(/another `cadre run` is running the due work of company/);
    expect(second.stderr).not.toMatch(/nothing is due|run\(s\)/);
    const busy = JSON.parse(second.stdout) as { busy: { pid: number }; idle: boolean };
    expect(busy).toMatchObject({ busy: { pid: first.child.pid }, idle: false });
    // The second touched nothing: the first still holds the reason and its run.
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const [request] = await store.listWakeRequests({ agentId: ceo });
      expect(request).toMatchObject({ id: requestId, status: "taken" });
      expect((await store.listRuns({ agentId: ceo })).map((r) => r.status)).toEqual(["running"]);
    } finally {
      await store.close();
    }

    first.child.kill("SIGINT");
    expect((await first.exited).code).toBe(130);
    holding = false;
    // The operator's Ctrl-C ended that run (its reason is the operator's to renew): the CEO is woken
    // by hand, and the run after it owns the company's due work now that the first let go.
    const third = await runCliProcess(["wake", ceo, "--json", "--data", dir], cliEnv());
    expect(third.code, third.stderr).toBe(0);
    const after = await runCliProcess(["run", "--until-idle", "--json", "--data", dir], cliEnv());
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ idle: true, running: [] });
  }, 180_000);

  it("idle is false while a run goes on in another process: the run is listed, not 'nothing is due'", async () => {
    const { ceo } = await approvedStandinCompany(dir, standIn.baseUrl);
    const wake = startCli(["wake", ceo, "--data", dir], cliEnv());
    await standIn.modelCalls(1);
    const run = await runCliProcess(["run", "--json", "--data", dir], cliEnv());
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      idle: boolean;
      stillDue: string[];
      running: Array<{ agentId: string; runId: string }>;
    };
    expect(report).toMatchObject({ idle: false, stillDue: [] });
    expect(report.running.map((r) => r.agentId)).toEqual([ceo]);
    expect(run.stderr).toMatch(/nothing is due here; still running in another process: .*\(run run_/);
    wake.child.kill("SIGINT");
    expect((await wake.exited).code).toBe(130);
  }, 180_000);
});
