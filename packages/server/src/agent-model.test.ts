// PATCH /api/agents/:id/model (MC-13): validation in code with nothing written on a refusal, the row
// and its activity in one transaction, and a live session asked first, inside its session lock.
import { OFFLINE_MODEL_ID, PiAgent, resolveModel, type StreamFn } from "@cadre/core";
import { createScriptedStreamFn } from "@cadre/core/testing";
import { openStore, type Store } from "@cadre/store";
import { afterEach, describe, expect, it } from "vitest";
import { apiCompany, apiKey, type TestApp, testApp, testAppOver } from "./testing/harness.js";

const SONNET = "claude-sonnet-4-5-20250929";
const HAIKU = "claude-haiku-4-5-20251001";

let app: TestApp;
afterEach(async () => app.close());

/** A company with an anthropic connector (two models) and an agent on it (no wake needed). */
async function world() {
  app = await testApp();
  const { id, ceoAgentId } = await apiCompany(app);
  const added = await app.request("POST", `/api/companies/${id}/connectors`, {
    json: { kind: "anthropic", enabledModels: [SONNET, HAIKU] },
  });
  expect(added.status).toBe(201);
  const agent = await app.store.insertAgent({
    id: "agt_writer",
    companyId: id,
    name: "Writer",
    role: "Writer",
    description: "Writes.",
    department: null,
    connectorId: "anthropic",
    model: SONNET,
    reportsTo: ceoAgentId,
    isCeo: false,
    status: "active",
    via: "system",
  });
  return { companyId: id, ceoAgentId, agentId: agent.id };
}

/** A real Pi session (offline scripted model) whose model calls wait for `release`. */
function heldSession() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = createScriptedStreamFn({
    script: () => ({ content: [{ type: "text", text: "ok" }] }),
    seed: 1,
  }) as StreamFn;
  const streamFn: StreamFn = async (model, context, options) => {
    await gate;
    return inner(model, context, options);
  };
  const session = new PiAgent(
    { sessionId: "live", systemPrompt: "s", model: resolveModel(OFFLINE_MODEL_ID), tools: [] },
    { streamFn },
  );
  return { session, release };
}

describe("MC-13 PATCH /api/agents/:id/model", () => {
  it("MC-13 a model not enabled on the agent's connector, or an alias, is refused naming the allowed ones; nothing is written", async () => {
    const { agentId, ceoAgentId } = await world();
    const before = await app.store.counts();
    const off = await app.request("PATCH", `/api/agents/${agentId}/model`, {
      json: { model: "claude-opus-4-7" },
    });
    expect(off.status).toBe(400);
    expect(off.body.error.message).toBe(
      `"claude-opus-4-7" is not enabled on connector "anthropic" of Writer; allowed on connector "anthropic": ${SONNET}, ${HAIKU}`,
    );
    expect(off.body.error.fields).toEqual({ model: `allowed on connector "anthropic": ${SONNET}, ${HAIKU}` });
    const alias = await app.request("PATCH", `/api/agents/${agentId}/model`, { json: { model: "sonnet" } });
    expect(alias.status).toBe(400);
    expect(alias.body.error.message).toMatch(
      /alias; Cadre routes only explicit model ids.*allowed on connector "anthropic"/,
    );
    expect(alias.body.error.message).not.toMatch(/MC-\d/);
    const ceo = await app.request("PATCH", `/api/agents/${ceoAgentId}/model`, { json: { model: SONNET } });
    expect(ceo.status).toBe(400);
    expect(ceo.body.error.message).toContain(`allowed on connector "offline": ${OFFLINE_MODEL_ID}`);
    // The one schema: a missing or unknown field is a 400 naming it, before the handler.
    expect(
      (await app.request("PATCH", `/api/agents/${agentId}/model`, { json: {} })).body.error.fields,
    ).toHaveProperty("model");
    expect(
      (await app.request("PATCH", `/api/agents/${agentId}/model`, { json: { model: HAIKU, x: 1 } })).body
        .error.fields,
    ).toHaveProperty("x");
    expect(await app.store.counts()).toEqual(before);
    expect((await app.store.getAgent(agentId))?.model).toBe(SONNET);
  });

  it("MC-13 operator only: an agent token gets 403", async () => {
    const { agentId, ceoAgentId } = await world();
    const token = await apiKey(app, ceoAgentId);
    expect(
      (await app.request("PATCH", `/api/agents/${agentId}/model`, { token, json: { model: HAIKU } })).status,
    ).toBe(403);
  });

  it("MC-13 without a live session: the row and one agent.model_changed activity, in one transaction; the same model again writes nothing", async () => {
    const { agentId, companyId } = await world();
    const switched = await app.request("PATCH", `/api/agents/${agentId}/model`, { json: { model: HAIKU } });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({
      agent: { id: agentId, model: HAIKU },
      from: SONNET,
      changed: true,
      live: "no live session",
    });
    expect((await app.store.getAgent(agentId))?.model).toBe(HAIKU);
    const activity = await app.store.listActivity(companyId, { type: "agent.model_changed" });
    expect(activity.map((a) => a.data)).toEqual([
      { agentId, name: "Writer", connectorId: "anthropic", from: SONNET, to: HAIKU, live: "no live session" },
    ]);
    const before = await app.store.counts();
    const again = await app.request("PATCH", `/api/agents/${agentId}/model`, { json: { model: HAIKU } });
    expect(again.body).toMatchObject({ changed: false });
    expect(await app.store.counts()).toEqual(before);
  });

  it("MC-13 a live session running a turn refuses inside its lock: 409 with the reason, nothing written", async () => {
    const { agentId } = await world();
    const { session, release } = heldSession();
    app.cadre.wakes.liveSession = (id) => (id === agentId ? session : undefined);
    const turn = (async () => {
      for await (const _ of session.send("go")) void _;
    })();
    const before = await app.store.counts();
    const refused = await app.request("PATCH", `/api/agents/${agentId}/model`, { json: { model: HAIKU } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "conflict",
      message: `Writer's live session refused the switch to ${HAIKU}: a turn is running: no hot switch then send`,
    });
    expect(await app.store.counts()).toEqual(before);
    expect((await app.store.getAgent(agentId))?.model).toBe(SONNET);
    expect(session.model.id).toBe(OFFLINE_MODEL_ID);
    release();
    await turn;
    // Idle now: the same switch is assessed and applied to the live session and the row.
    const applied = await app.request("PATCH", `/api/agents/${agentId}/model`, { json: { model: HAIKU } });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ changed: true, live: "switch" });
    expect(session.model.id).toBe(HAIKU);
  });
});

describe("the wake registry behind it", () => {
  it("MC-13 an in-process wake's session is reachable while its wake runs, and gone once it ends", async () => {
    const raw = await openStore({ memory: true });
    let hold: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (hold = resolve));
    let holding = true;
    // Holds the wake's first event write, so the wake is still running when the test looks.
    const store = new Proxy(raw, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== "appendRunEvents" || typeof value !== "function")
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return async (...args: unknown[]) => {
          if (holding) await held;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Store;
    app = testAppOver(raw, { store });
    const { ceoAgentId } = await apiCompany(app);
    const woken = await app.request("POST", `/api/agents/${ceoAgentId}/wake`, {
      json: { trigger: "start_team_building", seed: 1 },
    });
    expect(woken.status).toBe(202);
    expect(app.cadre.wakes.liveSession(ceoAgentId)).toBeInstanceOf(PiAgent);
    holding = false;
    hold();
    await app.cadre.wakes.idle();
    expect(app.cadre.wakes.liveSession(ceoAgentId)).toBeUndefined();
  });
});
