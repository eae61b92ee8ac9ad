// Closing the output pipe never abandons a run. `cadre demo | head -8` with a model
// that is still answering: the reader goes away mid-run; the demo must go on to the run's end with
// its output dropped — the run `done`, its usage recorded, no reservation left in the budget — and
// exit with its own code, saying so on stderr. The CEO runs on an OFFLINE @cadre/standin server (the
// Chat Completions wire) that holds its second answer until the test has closed the pipe.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { hireLeads } from "@cadre/standin";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  declareStandinModel,
  STANDIN_MODEL,
  startWatchedStandin,
  type WatchedStandin,
} from "./testing/standin-model.js";
import { cliEnv, startCli } from "./testing/spawn-cli.js";

let dir: string;
let standIn: WatchedStandin;
let open: () => void;
let secondCall: Promise<void>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-closed-pipe-"));
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrived: () => void = () => {};
  secondCall = new Promise<void>((resolve) => (arrived = resolve));
  const policy = hireLeads();
  let calls = 0;
  standIn = await startWatchedStandin(async (request, context) => {
    // The first answer at once (the demo prints it); the rest once the reader is gone.
    if (++calls > 1) {
      arrived();
      await gate;
    }
    return policy(request, context);
  });
});
afterEach(async () => {
  open();
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a reader that closes stdout mid-run", () => {
  it("drops the rest of the output; the run goes on to its end, recorded, and the exit code is the run's", async () => {
    await declareStandinModel(dir);
    await loadUserModels({ dataDir: dir, env: {} });
    const setup = await openStore({ path: join(dir, "cadre.db") });
    try {
      await createCompany(setup, {
        name: "Pipe Co",
        goal: "Build warehouse robots.",
        connectors: [
          { kind: "openai-compatible", config: { baseUrl: standIn.baseUrl }, enabledModels: [STANDIN_MODEL] },
        ],
        ceoConnectorId: "openai-compatible",
      });
    } finally {
      await setup.close();
    }
    const demo = startCli(["demo", "--data", dir], cliEnv());
    await secondCall;
    expect(await demo.untilLines(3)).toBe(true);
    // `| head -3`: the reader reads a few lines and goes away.
    demo.child.stdout!.destroy();
    open();
    const exited = await demo.exited;
    expect(exited.signal).toBeNull();
    expect(exited.code, exited.stderr).toBe(0);

    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const [company] = await store.listCompanies();
      const runs = await store.listRuns({ companyId: company!.id });
      expect(runs.map((r) => r.status)).toEqual(["done"]);
      const run = runs[0]!;
      expect(run.usage.input + run.usage.output).toBeGreaterThan(0);
      // Every model call the run made is settled in the ledger: nothing stays reserved.
      const calls = await store.listModelCalls(run.id);
      expect(calls.length).toBeGreaterThan(1);
      expect(calls.every((c) => c.status === "settled")).toBe(true);
      expect((await store.spendOf({ companyId: company!.id })).reservedTokens).toBe(0);
      // The leads were hired and the strategy filed: the demo did its whole job.
      expect((await store.listAgents(company!.id)).length).toBeGreaterThan(1);
      expect((await store.listApprovals(company!.id)).map((a) => a.status)).toEqual(["pending"]);
      expect(await store.listRuns({ status: "running" })).toEqual([]);
    } finally {
      await store.close();
    }
    expect(exited.stderr).toMatch(/stdout was closed by its reader; the rest of the output is dropped/);
  }, 120_000);
});
