// SIGINT / SIGTERM while `cadre demo`, `cadre wake` or `cadre serve` runs a wake:
// the run ends cancelled exactly once, with the usage of its completed model call recorded, the
// command says so on stderr and exits 130 / 143; a SIGKILLed run is reported as interrupted by
// `cadre sessions inspect`, before and after the next command recovers it. The CEO runs on an
// OFFLINE @cadre/standin server (the Chat Completions wire, an `openai-compatible` connector) whose
// script answers the first model call and holds the second one open: each signal lands at that
// known point of the run.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, INTERRUPTED_REASON } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply, scripted } from "@cadre/standin";
import {
  declareStandinModel,
  STANDIN_MODEL,
  startWatchedStandin,
  type WatchedStandin,
} from "./testing/standin-model.js";
import { cliEnv, runCliProcess, startCli } from "./testing/spawn-cli.js";

let dir: string;
let standIn: WatchedStandin;

/** What the completed first call reports (the OpenAI wire: prompt tokens, none cached, and completion tokens). */
const FIRST_CALL_USAGE = { input: 1234, output: 56, cacheRead: 0, cacheWrite: 0 };
let store: Store;
let ceo: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-interrupt-"));
  // Call 1: a hire_agent call with no arguments (the tool refuses it), with its usage. Call 2: held open.
  standIn = await startWatchedStandin(
    scripted([{ ...reply.toolCall("hire_agent", {}), usage: FIRST_CALL_USAGE }, reply.hang()]),
  );
  await declareStandinModel(dir);
  await loadUserModels({ dataDir: dir, env: {} });
  store = await openStore({ path: join(dir, "cadre.db") });
  const company = await createCompany(store, {
    name: "Signal Co",
    goal: "Build warehouse robots.",
    connectors: [
      { kind: "openai-compatible", config: { baseUrl: standIn.baseUrl }, enabledModels: [STANDIN_MODEL] },
    ],
    ceoConnectorId: "openai-compatible",
  });
  ceo = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
});

afterEach(async () => {
  await store.close();
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

/** The one run of the CEO, its events, and what its usage should be: the completed call's. */
async function theRun() {
  const [run, ...others] = await store.listRuns({ agentId: ceo });
  expect(others).toEqual([]);
  const events = await store.listRunEvents(run!.id);
  return { run: run!, events, terminals: events.filter((e) => e.type === "terminal") };
}

const completedCallUsage = FIRST_CALL_USAGE;

describe("a signal while a command runs a wake", () => {
  it.each([
    ["wake", "SIGINT", 130],
    ["demo", "SIGTERM", 143],
  ] as const)(
    "cadre %s + %s: cancelled once, usage recorded, said on stderr, exit %i",
    async (command, signal, code) => {
      const argv = command === "wake" ? ["wake", ceo, "--data", dir] : ["demo", "--data", dir];
      const running = startCli(argv, cliEnv());
      await standIn.modelCalls(2); // the first model call completed; the second is in flight
      running.child.kill(signal);
      const exited = await running.exited;
      expect(exited.code, exited.stderr).toBe(code);
      const { run, terminals } = await theRun();
      expect(exited.stderr).toContain(`run ${run.id} cancelled by ${signal}; usage recorded`);
      expect(run).toMatchObject({
        status: "cancelled",
        error: `cancelled by ${signal}`,
        usage: completedCallUsage,
      });
      expect(terminals.map((t) => t.data)).toEqual([
        { type: "terminal", status: "cancelled", reason: `cancelled by ${signal}` },
      ]);
      expect(await store.listRunningWakes()).toEqual([]);
      const inspect = await runCliProcess(["sessions", "inspect", run.id, "--data", dir]);
      expect(inspect.stdout).toContain(`ended      cancelled: cancelled by ${signal}`);
      expect(inspect.stdout).not.toMatch(/no snapshot recorded/);
    },
  );

  it("cadre serve + SIGTERM during a wake it runs: the run ends cancelled once, said on stderr, exit 143", async () => {
    const served = startCli(["serve", "--port", "0", "--data", dir], cliEnv());
    await served.untilLines(2);
    const url = /listening on (\S+)/.exec(served.output())![1]!;
    const token = /operator token: (\S+)/.exec(served.output())![1]!;
    const woken = await fetch(`${url}/api/agents/${ceo}/wake`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(woken.status).toBe(202);
    await standIn.modelCalls(2);
    served.child.kill("SIGTERM");
    const exited = await served.exited;
    expect(exited.code, exited.stderr).toBe(143);
    const { run, terminals } = await theRun();
    expect(exited.stderr).toContain(`run ${run.id} cancelled by SIGTERM; usage recorded`);
    expect(run).toMatchObject({ status: "cancelled", usage: completedCallUsage });
    expect(terminals).toHaveLength(1);
  });

  it("a SIGKILLed run: sessions inspect says interrupted before and after the next command recovers it", async () => {
    const running = startCli(["wake", ceo, "--data", dir], cliEnv());
    await standIn.modelCalls(2);
    running.child.kill("SIGKILL");
    await running.exited;
    const { run } = await theRun();
    expect(run.status).toBe("running");
    // Still marked running; its process is gone: reported as such, nothing written.
    const before = await runCliProcess(["sessions", "inspect", run.id, "--data", dir, "--json"]);
    expect(JSON.parse(before.stdout)).toMatchObject({ status: "running", ending: "interrupted" });
    expect((await store.getRun(run.id))?.status).toBe("running");

    // The next command that runs wakes (here a server, when it starts) records its end, and says so.
    const served = startCli(["serve", "--port", "0", "--data", dir], cliEnv());
    await served.untilLines(3); // its last line at start: it now stops cleanly on a signal
    expect(served.errors()).toContain(`recovered run ${run.id} of agent ${ceo}: ${INTERRUPTED_REASON}`);
    served.child.kill("SIGTERM");
    const stopped = await served.exited;
    expect(stopped.code, JSON.stringify(stopped)).toBe(0);
    const after = await runCliProcess(["sessions", "inspect", run.id, "--data", dir]);
    expect(after.stdout).toContain(`ended      interrupted: ${INTERRUPTED_REASON}`);
    expect(after.stdout).not.toMatch(/no snapshot recorded/);
    expect(await store.getRun(run.id)).toMatchObject({
      status: "failed",
      error: INTERRUPTED_REASON,
      usage: completedCallUsage,
    });
  });

  it("a server already running on the store recovers a run killed meanwhile, without a restart", async () => {
    const served = startCli(["serve", "--port", "0", "--data", dir], cliEnv());
    await served.untilLines(3);
    try {
      const running = startCli(["wake", ceo, "--data", dir], cliEnv());
      await standIn.modelCalls(2);
      running.child.kill("SIGKILL");
      await running.exited;
      const { run } = await theRun();
      // Within one of its sweeps (every few seconds): waited for, never timed.
      await expect
        .poll(async () => (await store.getRun(run.id))?.status, { timeout: 60_000, interval: 200 })
        .toBe("failed");
      await expect
        .poll(() => served.errors(), { timeout: 10_000 })
        .toContain(`cadre serve: recovered run ${run.id}`);
      expect((await theRun()).terminals).toHaveLength(1);
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }
  });
});
