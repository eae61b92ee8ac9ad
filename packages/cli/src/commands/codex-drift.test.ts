// MC-6 drift on the REAL Codex binary, in a wake, against a loopback stand-in that serves another
// model than the one the CEO is declared on: the stand-in's answer names it (its `openai-model`
// header, as OpenAI's API does), Codex says "model rerouted", and the call records the served model,
// priced unknown; the drift is a run event and an activity row, and under `settings.onModelDrift:
// "refuse"` the run stops at that call.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCompany, loadCompanyState, wakeAgent } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { codexTestEnv, REAL_CODEX } from "@cadre/core/testing";
import { reply, scripted, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const DECLARED = "gpt-5-2025-08-07";
const SERVED = "gpt-5-mini-2025-08-07";

let dir: string;
let store: Store;
let server: StandinServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-drift-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function wakeOn(model: string, onModelDrift?: "refuse") {
  server = await startStandin({
    policy: scripted([{ ...reply.text("Looking at the company first."), model }, "never reached"]),
  });
  const company = await createCompany(store, {
    name: "Northwind Robotics",
    goal: "Build autonomous warehouse robots.",
    connectors: [{ kind: "codex", enabledModels: [DECLARED], config: { baseUrl: server.openaiBaseUrl } }],
    ceoConnectorId: "codex",
  });
  if (onModelDrift) {
    const { settings } = (await store.getCompany(company.id))!;
    await store.updateCompanySettings(company.id, { ...settings, onModelDrift });
  }
  const { ceo } = await loadCompanyState(store, company.id);
  const result = await wakeAgent({
    store,
    agentId: ceo.id,
    dataDir: dir,
    trigger: "start_team_building",
    env: codexTestEnv(join(dir, "home")),
    cadreCommand: [process.execPath, BIN],
  });
  const stored = (await store.listRunEvents(result.run.id)).map((e) => e.data as AgentEvent);
  const activity = await store.listActivity(company.id, { type: "model.drifted" });
  const calls = await store.listModelCalls(result.run.id);
  return { result, stored, activity, calls };
}

describe.skipIf(!REAL_CODEX)("a served model other than the declared one (a drift), on real Codex", () => {
  it("a call served by the declared model is no drift, and is priced", async () => {
    const { result, stored, activity, calls } = await wakeOn(DECLARED);
    expect(result.terminal).toBe("done");
    expect(stored.filter((e) => e.type === "model_drift")).toEqual([]);
    expect(activity).toEqual([]);
    expect(calls.map((c) => [c.servedModel, typeof c.costUsd])).toEqual([[DECLARED, "number"]]);
  }, 120_000);

  it("warn: the call records the served model, priced unknown; a drift event and an activity row, and no error", async () => {
    const { result, stored, activity, calls } = await wakeOn(SERVED);
    expect(result.terminal).toBe("done");
    expect(calls.map((c) => [c.model, c.servedModel, c.costUsd])).toEqual([[DECLARED, SERVED, null]]);
    expect(stored.filter((e) => e.type === "model_drift")).toEqual([
      { type: "model_drift", declared: DECLARED, served: SERVED, policy: "warn" },
    ]);
    // Codex's reroute notice (and its account-flagging text) is not shown as an error of the run.
    expect(stored.filter((e) => e.type === "error")).toEqual([]);
    expect(activity.map((a) => [a.runId, a.data])).toEqual([
      [result.run.id, { connectorId: "codex", declared: DECLARED, served: SERVED, policy: "warn" }],
    ]);
  }, 120_000);

  it("refuse: the run stops at the drifted call, failed, its stop reason naming the drift", async () => {
    const { result, stored, activity } = await wakeOn(SERVED, "refuse");
    expect(result.terminal).toBe("failed");
    expect(result.stopReason).toBe("model_drift");
    expect(result.run.error).toMatch(
      new RegExp(`model_drift: the endpoint served "${SERVED}" for the declared model "${DECLARED}"`),
    );
    expect(stored.filter((e) => e.type === "model_drift")).toEqual([
      { type: "model_drift", declared: DECLARED, served: SERVED, policy: "refuse" },
    ]);
    expect(activity).toHaveLength(1);
    expect(server!.modelCalls()).toHaveLength(1);
  }, 120_000);
});
