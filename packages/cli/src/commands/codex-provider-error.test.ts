// A Codex wake against a provider answering 500 with a message of its own (one that echoes the
// connector's key) — the REAL Codex binary against a loopback @cadre/standin server: the run's error
// names the HTTP status the provider answered, said once; the key appears nowhere in the run.
// Codex 0.163 replaces a 5xx's message with its own generic text and never passes the provider's
// on (codex/provider-status.ts), so the run says that too.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCompany, loadCompanyState, wakeAgent } from "@cadre/company";
import { codexTestEnv, REAL_CODEX } from "@cadre/core/testing";
import { reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const KEY = "sk-codex-provider-error-0123456789abcdef";

let dir: string;
let store: Store;
let server: StandinServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-500-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  server = await startStandin({
    policy: () => reply.error("server", { message: `the upstream model crashed serving key ${KEY}` }),
  });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!REAL_CODEX)("a Codex wake against a provider answering 500 (the real binary)", () => {
  it("the run's error keeps the HTTP status, once, and no key", async () => {
    // The connector's readiness at creation reads this process's environment.
    vi.stubEnv("ERR_CODEX_KEY", KEY);
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots.",
      connectors: [{ kind: "codex", config: { baseUrl: server.openaiBaseUrl, apiKeyEnv: "ERR_CODEX_KEY" } }],
      ceoConnectorId: "codex",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    const result = await wakeAgent({
      store,
      agentId: ceo.id,
      dataDir: dir,
      trigger: "start_team_building",
      env: codexTestEnv(join(dir, "home"), { ERR_CODEX_KEY: KEY }),
      cadreCommand: [process.execPath, BIN],
    });
    expect(server.requests.length).toBeGreaterThan(0);
    expect(result.terminal).toBe("failed");
    expect(result.run.error).toMatch(
      /^the model provider answered HTTP 500 Internal Server Error; Codex reported "[^"]+" \(Codex does not pass on the provider's own message\)$/,
    );
    const events = await store.listRunEvents(result.run.id);
    const errors = events.filter(
      (e) => e.type === "error" && (e.data as { code?: string }).code !== "retrying",
    );
    expect(errors.map((e) => (e.data as { message: string }).message)).toEqual([result.run.error]);
    expect(JSON.stringify(events)).not.toContain(KEY);
  }, 120_000);
});
