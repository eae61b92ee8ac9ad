// MC-6: a model is pinned by what the endpoint serves under its id. An Ollama-style stand-in lists
// its model with a digest (GET /api/tags); the digest is kept when the model is declared (the
// company's CEO connector, `connectors add`), and compared again at readiness and when a wake
// starts, from the probe cache. A `pull` that re-points the tag (the stand-in's repoint) is a drift:
// an event and an activity row naming both digests, the run's calls priced unknown, and under
// `settings.onModelDrift: "refuse"` the wake makes no model call at all.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentEvent } from "@cadre/core";
import { reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "./companies.js";
import { addConnector } from "./connectors/connector-admin.js";
import { ProbeCache } from "./connectors/probe-cache.js";
import { connectorView } from "./connectors/connector-view.js";
import { checkReadiness } from "./connectors/readiness.js";
import { setAgentModel } from "./agent-model.js";
import { loadCompanyState } from "./state.js";
import { wakeAgent } from "./wake.js";

const MODEL = "llama3.1:8b";
const PULLED = "a".repeat(64);
const REPULLED = "b".repeat(64);
const env = {};

let store: Store;
let server: StandinServer;
// Every read is a fresh probe (no time to live): what a wake reads is what the endpoint says now.
let probes: ProbeCache;
beforeEach(async () => {
  store = await openStore({ memory: true });
  probes = new ProbeCache({ okTtlMs: 0 });
  server = await startStandin({
    policy: () => reply.text("Noted; nothing to do yet."),
    models: [MODEL],
    digests: { [MODEL]: PULLED },
  });
});
afterEach(async () => {
  await server.close();
  await store.close();
});

const local = () => ({
  id: "local",
  kind: "openai-compatible" as const,
  enabledModels: [MODEL],
  config: { baseUrl: server.openaiBaseUrl, models: [{ id: MODEL, contextWindow: 32768 }] },
});

async function company() {
  const created = await createCompany(store, {
    name: "Acme Robotics",
    goal: "Build warehouse robots.",
    connectors: [local()],
    ceoConnectorId: "local",
    env,
    probes,
  });
  const { settings } = (await store.getCompany(created.id))!;
  // Priced by the company: a call on the declared model has a cost, so "unknown" is visible.
  await store.updateCompanySettings(created.id, {
    ...settings,
    prices: [{ model: MODEL, since: "2020-01-01", input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }],
  });
  return created;
}

async function wake(companyId: string) {
  const { ceo } = await loadCompanyState(store, companyId);
  const result = await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", env, probes });
  const stored = (await store.listRunEvents(result.run.id)).map((e) => e.data as AgentEvent);
  return {
    result,
    drifts: stored.filter((e) => e.type === "model_drift"),
    errors: stored.filter((e) => e.type === "error"),
    calls: await store.listModelCalls(result.run.id),
  };
}

const fingerprint = { declared: `digest:${PULLED}`, served: `digest:${REPULLED}` };

describe("a model replaced under its id (its digest changed) is a drift", () => {
  it("the digest is kept at declaration; the same digest is no drift, and the call is priced", async () => {
    const { id } = await company();
    expect((await store.getConnector(id, "local"))!.modelFingerprints).toEqual({
      [MODEL]: `digest:${PULLED}`,
    });
    const { result, drifts, calls } = await wake(id);
    expect(result.terminal).toBe("done");
    expect(drifts).toEqual([]);
    expect(calls.map((c) => typeof c.costUsd)).toEqual(["number"]);
    expect(await store.listActivity(id, { type: "model.drifted" })).toEqual([]);
  });

  it("warn: after a re-pull, readiness says so and the wake records the drift (event, activity row), its call priced unknown", async () => {
    const { id } = await company();
    server.repoint(MODEL, REPULLED);
    const connector = (await store.getConnector(id, "local"))!;
    const ready = await checkReadiness(connector, env, probes);
    expect(ready).toMatchObject({ ready: true, drifts: [{ model: MODEL, ...fingerprint }] });
    // The connector's view (API, CLI, dashboard) says what was kept and what is offered now.
    expect(connectorView(connector, env, probes).models).toEqual([
      {
        id: MODEL,
        contextWindow: 32768,
        declared: true,
        fingerprint: fingerprint.declared,
        replacedBy: fingerprint.served,
      },
    ]);
    const { result, drifts, calls } = await wake(id);
    expect(result.terminal).toBe("done");
    expect(drifts).toEqual([
      { type: "model_drift", declared: MODEL, served: MODEL, policy: "warn", fingerprint },
    ]);
    expect(calls.map((c) => [c.servedModel, c.costUsd])).toEqual([[MODEL, null]]);
    const activity = await store.listActivity(id, { type: "model.drifted" });
    expect(activity.map((a) => [a.runId, a.data])).toEqual([
      [result.run.id, { connectorId: "local", declared: MODEL, served: MODEL, fingerprint, policy: "warn" }],
    ]);
  });

  it("refuse: the wake fails before any model call, its stop reason and error naming the drift", async () => {
    const { id } = await company();
    const { settings } = (await store.getCompany(id))!;
    await store.updateCompanySettings(id, { ...settings, onModelDrift: "refuse" });
    server.repoint(MODEL, REPULLED);
    const before = server.modelCalls().length;
    const { result, drifts, errors } = await wake(id);
    expect(result.terminal).toBe("failed");
    expect(result.stopReason).toBe("model_drift");
    expect(result.run.error).toMatch(
      new RegExp(
        `^model_drift: the endpoint's model "${MODEL}" is not the one declared \\(digest a{12} then, digest b{12} now\\)`,
      ),
    );
    expect(errors.map((e) => e.code)).toEqual(["model_drift"]);
    expect(drifts).toEqual([
      { type: "model_drift", declared: MODEL, served: MODEL, policy: "refuse", fingerprint },
    ]);
    expect(server.modelCalls().length).toBe(before);
    expect(await store.listActivity(id, { type: "model.drifted" })).toHaveLength(1);
  });
});

describe("what `connectors add` keeps of a declared model", () => {
  it("Ollama's digest where the endpoint has a tags listing; else the model list's metadata", async () => {
    const { id } = await company();
    const added = await addConnector(store, id, { ...local(), id: "second" }, { env, probes });
    expect(added.modelFingerprints).toEqual({ [MODEL]: `digest:${PULLED}` });
    const plain = await startStandin({ policy: () => reply.text("ok"), models: [MODEL] });
    try {
      const other = await addConnector(
        store,
        id,
        { ...local(), id: "plain", config: { ...local().config, baseUrl: plain.openaiBaseUrl } },
        { env, probes },
      );
      expect(other.modelFingerprints).toEqual({ [MODEL]: expect.stringMatching(/^listing:[0-9a-f]{16}$/) });
    } finally {
      await plain.close();
    }
  });
});

describe("an endpoint that never answers its tags listing", () => {
  it("is ready on its model list, with the listing's metadata as fingerprint", async () => {
    // A gateway that holds unknown paths open: GET /api/tags never answers, its model list does.
    const hanging = createServer((req, res) => {
      if (req.url === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: MODEL, object: "model", owned_by: "gw" }] }));
      }
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const { port } = hanging.address() as AddressInfo;
    try {
      const connector = { ...local(), config: { ...local().config, baseUrl: `http://127.0.0.1:${port}/v1` } };
      const ready = await checkReadiness(connector, env, new ProbeCache());
      expect(ready).toMatchObject({ ready: true });
      const cache = new ProbeCache();
      const { id } = await company();
      const added = await addConnector(store, id, { ...connector, id: "gateway" }, { env, probes: cache });
      expect(added.modelFingerprints).toEqual({ [MODEL]: expect.stringMatching(/^listing:/) });
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});

describe("a model declared for an agent later (a model switch, a hire) is pinned then", () => {
  it("moving the CEO onto a connector that kept nothing for the model keeps what its endpoint offers now", async () => {
    const created = await createCompany(store, {
      name: "Acme Robotics",
      goal: "Build warehouse robots.",
      connectors: [local()],
      env,
      probes,
    });
    // Not the CEO's connector at creation: nothing was asked of its endpoint then.
    expect((await store.getConnector(created.id, "local"))!.modelFingerprints).toEqual({});
    const { ceo } = await loadCompanyState(store, created.id);
    await setAgentModel(store, { agentId: ceo.id, model: MODEL, connectorId: "local", env, probes });
    expect((await store.getConnector(created.id, "local"))!.modelFingerprints).toEqual({
      [MODEL]: `digest:${PULLED}`,
    });
  });
});
