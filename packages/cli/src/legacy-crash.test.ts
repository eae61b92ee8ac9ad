// A legacy-profile run SIGKILLed while its bash command runs: before recovery its
// token still works and the command still runs — what the issue saw; the next command on the store
// (a server, as it starts) revokes the token, so it no longer hires anything, and kills the
// command's process group. The CEO runs on an OFFLINE @cadre/standin server (the Chat Completions
// wire) whose first answer is one bash call: save the run's token, then sleep.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, INTERRUPTED_REASON, processState } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, expect, it } from "vitest";
import { reply, scripted } from "@cadre/standin";
import {
  declareStandinModel,
  STANDIN_MODEL,
  startWatchedStandin,
  type WatchedStandin,
} from "./testing/standin-model.js";
import { cliEnv, startCli } from "./testing/spawn-cli.js";

let dir: string;
let standIn: WatchedStandin;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-legacy-crash-"));
  standIn = await startWatchedStandin(
    scripted([
      reply.toolCall("bash", { command: 'printf %s "$CADRE_AGENT_TOKEN" > token.txt; sleep 300' }),
      reply.hang(),
    ]),
  );
  await declareStandinModel(dir);
  await loadUserModels({ dataDir: dir, env: {} });
  store = await openStore({ path: join(dir, "cadre.db") });
});

afterEach(async () => {
  await store.close();
  await standIn.close();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

it("a killed legacy run's token stops working and its bash command is killed once the run is recovered", async () => {
  const company = await createCompany(store, {
    name: "Legacy Crash Co",
    connectors: [
      { kind: "openai-compatible", config: { baseUrl: standIn.baseUrl }, enabledModels: [STANDIN_MODEL] },
    ],
    ceoConnectorId: "openai-compatible",
  });
  const ceo = (await store.listAgents(company.id)).find((a) => a.isCeo)!;
  const wake = startCli(["wake", ceo.id, "--profile", "legacy", "--data", dir], cliEnv());
  const run = await until("the run", async () => (await store.listRuns({ agentId: ceo.id }))[0]);
  const group = await until(
    "the bash command's process group",
    async () => (await store.listRunProcesses(run.id))[0],
  );
  const tokenFile = join(dir, "runs", run.id, "token.txt");
  const token = await until("the token saved by the command", async () =>
    existsSync(tokenFile) && (await readFile(tokenFile, "utf8")).length > 0
      ? readFile(tokenFile, "utf8")
      : undefined,
  );
  wake.child.kill("SIGKILL");
  await wake.exited;
  // What the issue saw: the parent is gone, its command runs on, its token is live.
  expect(processState(group)).toBe("alive");
  expect((await store.listApiTokens(ceo.id)).find((t) => t.runId === run.id)?.revokedAt).toBeNull();

  const served = startCli(["serve", "--port", "0", "--data", dir], cliEnv());
  await served.untilLines(3);
  const url = /listening on (\S+)/.exec(served.output())![1]!;
  try {
    expect(served.errors()).toMatch(
      new RegExp(
        `recovered run ${run.id} of agent ${ceo.id}: ${INTERRUPTED_REASON} .*1 token\\(s\\) revoked, 1 leftover process group\\(s\\) killed`,
      ),
    );
    // The run's token hires nothing through the later server.
    const hire = await fetch(`${url}/api/companies/${company.id}/agents`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "CTO",
        role: "Chief Technology Officer",
        description: "Leads engineering.",
        connectorId: "offline",
        model: "offline-scripted-1",
      }),
    });
    expect(hire.status).toBe(401);
    expect((await store.listAgents(company.id)).filter((a) => !a.isCeo)).toEqual([]);
    await expect.poll(() => processState(group)).toBe("gone");
    expect(await store.getRun(run.id)).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
  } finally {
    served.child.kill("SIGTERM");
    await served.exited;
  }
});
