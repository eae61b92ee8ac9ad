// A wake SIGKILLed while it holds its agent's session (real `cadre` processes, offline connector):
// the session stays held while the dead run still says running; the next `cadre wake` recovers the
// run, which releases the session in the same transaction, and resumes the agent's kept Pi session —
// no `cadre sessions reset --force`. The kill lands while the wake's first model call stalls (the
// `prompt-timeout` rehearsal fault), after the run and its session lock were written.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERRUPTED_REASON } from "@cadre/company";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliEnv, runCliProcess, startCli } from "./testing/spawn-cli.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-session-recovery-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const json = (stdout: string) =>
  JSON.parse(stdout.trim().split("\n").at(-1) as string) as Record<string, any>;

describe("SIGKILL during a wake that holds the agent's session", () => {
  it("the next wake recovers the run, which releases the session, and resumes the kept session without --force", async () => {
    const demo = await runCliProcess(["demo", "--data", dir, "--seed", "3", "--json"], cliEnv());
    expect(demo.code, demo.stderr).toBe(0);
    const { ceo, session } = json(demo.stdout) as { ceo: { agentId: string }; session: { id: string } };

    // A few tries: the kill must land while the run is under way (it stalls for the rehearsal's
    // prompt timeout); a wake that ended first is simply tried again.
    let killedRun: string | undefined;
    for (let attempt = 0; attempt < 5 && !killedRun; attempt++) {
      const running = startCli(["wake", ceo.agentId, "--data", dir, "--faults", "prompt-timeout"], cliEnv());
      await running.untilLines(1); // "run RUN_ID — mode …": the run and its session lock are written
      running.child.kill("SIGKILL");
      const exited = await running.exited;
      if (exited.signal === "SIGKILL") killedRun = /run (run_\w+)/.exec(exited.stdout)?.[1];
      else expect([0, 1], exited.stderr).toContain(exited.code);
    }
    expect(killedRun, "no kill landed during a run").toBeDefined();

    const held = await runCliProcess(["sessions", "show", ceo.agentId, "--data", dir, "--json"], cliEnv());
    expect(json(held.stdout)).toMatchObject({ session: { sessionId: session.id, runningRunId: killedRun } });

    const next = await runCliProcess(["wake", ceo.agentId, "--data", dir, "--json"], cliEnv());
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(
      `recovered run ${killedRun} of agent ${ceo.agentId}: ${INTERRUPTED_REASON}`,
    );
    expect(next.stderr).toContain("its agent's session released");
    const woken = json(next.stdout);
    expect(woken["session"]).toEqual({ harness: "pi", id: session.id, resumed: true, rolledOver: false });

    const after = await runCliProcess(["sessions", "show", ceo.agentId, "--data", dir, "--json"], cliEnv());
    expect(json(after.stdout)).toMatchObject({
      session: { sessionId: session.id, runningRunId: null, lastRunId: woken["runId"] },
    });
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      expect(await store.getRun(killedRun!)).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
      expect(await store.listRuns({ status: "running" })).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000); // up to eight `cadre` processes: a loaded 2-core machine needs the room
});
