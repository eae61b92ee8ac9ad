// PATCH /api/agents/:id/model (MC-13): validation in code with nothing written on a refusal, the row
// and its activity in one transaction, and a live session asked first, inside its session lock.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, loadCompanyState } from "@cadre/company";
import {
  type AgentEvent,
  contextReportOf,
  OFFLINE_MODEL_ID,
  OFFLINE_SMALL_MODEL_ID,
  PiAgent,
  resolveModel,
  type StreamFn,
} from "@cadre/core";
import { createScriptedStreamFn } from "@cadre/core/offline";
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
      {
        agentId,
        name: "Writer",
        connectorId: "anthropic",
        from: SONNET,
        to: HAIKU,
        live: "no live session",
        session: {
          action: "none",
          reason: "no session is kept: the next wake starts fresh on the new model",
        },
      },
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
    const wakeOf: { ceo?: string } = {};
    // Holds the wake's event writes once its session is open (a batch alone or in a transaction with
    // its usage), so the wake is still running when the test looks.
    const writes = new Set<PropertyKey>(["appendRunEvents", "transaction"]);
    const store = new Proxy(raw, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (!writes.has(key) || typeof value !== "function")
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return async (...args: unknown[]) => {
          if (holding && wakeOf.ceo !== undefined && app.cadre.wakes.liveSession(wakeOf.ceo)) await held;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Store;
    app = testAppOver(raw, { store });
    const { ceoAgentId } = await apiCompany(app);
    wakeOf.ceo = ceoAgentId;
    const woken = await app.request("POST", `/api/agents/${ceoAgentId}/wake`, {
      json: { trigger: "start_team_building", seed: 1 },
    });
    expect(woken.status).toBe(202);
    // The harness loads on the session's first use: the session is there once it has loaded.
    await expect.poll(() => app.cadre.wakes.liveSession(ceoAgentId)).toBeInstanceOf(PiAgent);
    expect(app.cadre.wakes.active).toBe(1);
    holding = false;
    hold();
    await app.cadre.wakes.idle();
    expect(app.cadre.wakes.liveSession(ceoAgentId)).toBeUndefined();
  });
});

describe("MC-13 between wakes, through the API: the agent's kept session is assessed against the target window", () => {
  let dataDir: string;
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  async function ceoWithTwoModels() {
    dataDir = await mkdtemp(join(tmpdir(), "cadre-api-sessions-"));
    const store = await openStore({ memory: true });
    app = testAppOver(store, { dataDir });
    const company = await createCompany(store, {
      name: "Acme Robotics",
      goal: "Build warehouse robots and sell them to logistics companies.",
      connectors: [
        { id: "rehearsal", kind: "offline", enabledModels: [OFFLINE_MODEL_ID, OFFLINE_SMALL_MODEL_ID] },
      ],
      ceoConnectorId: "rehearsal",
    });
    return (await loadCompanyState(store, company.id)).ceo;
  }

  async function wake(ceoId: string, json: Record<string, unknown> = {}) {
    const woken = await app.request("POST", `/api/agents/${ceoId}/wake`, { json: { seed: 3, ...json } });
    expect(woken.status).toBe(202);
    await app.cadre.wakes.idle();
    const runId = (woken.body as { runId: string }).runId;
    const events = (await app.store.listRunEvents(runId)).map((r) => r.data as AgentEvent);
    return contextReportOf(events);
  }

  it("MC-13 PATCH at or over 90% of the smaller target window: the handoff first, the next wake starts fresh from it on the new route; GET shows it; the reset forgets the session", async () => {
    const ceo = await ceoWithTwoModels();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    expect(first.snapshot?.sessionId).toBeDefined();
    // A long history: the kept window's last reading is 30,000 tokens, over 90% of the 32,000 target.
    const row = (await app.store.getAgentSession(ceo.id))!;
    const { createdAt: _c, lastUsedAt: _l, ...fields } = row;
    await app.store.putAgentSession({ ...fields, tokensInWindow: 30_000 });
    const patched = await app.request("PATCH", `/api/agents/${ceo.id}/model`, {
      json: { model: OFFLINE_SMALL_MODEL_ID },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      changed: true,
      live: "no live session",
      session: {
        action: "handoff-then-switch",
        fromSession: first.snapshot!.sessionId,
        reason: expect.stringMatching(/^switch to offline-scripted-small-1: pi: danger at 30000 tokens/),
      },
    });
    const shown = await app.request("GET", `/api/agents/${ceo.id}/session`);
    expect(shown.body).toMatchObject({
      agentId: ceo.id,
      session: {
        sessionId: null,
        model: OFFLINE_SMALL_MODEL_ID,
        previousSessionId: first.snapshot!.sessionId,
        bootstrap: { reason: patched.body.session.reason },
      },
    });
    const second = await wake(ceo.id);
    expect(second.rollovers).toMatchObject([
      { reason: patched.body.session.reason, fromSession: first.snapshot!.sessionId },
    ]);
    expect(second.snapshot).toMatchObject({
      model: OFFLINE_SMALL_MODEL_ID,
      contextWindow: 32_000,
      rollovers: 1,
    });
    const reset = await app.request("POST", `/api/agents/${ceo.id}/session/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      agentId: ceo.id,
      reset: true,
      previousSessionId: second.snapshot!.sessionId,
    });
    expect((await app.request("GET", `/api/agents/${ceo.id}/session`)).body).toEqual({
      agentId: ceo.id,
      session: null,
    });
    expect((await app.request("POST", `/api/agents/${ceo.id}/session/reset`)).body).toMatchObject({
      reset: false,
    });
  });

  it("MC-13 a fitting history: PATCH switches and the next wake resumes the same session on the new model", async () => {
    const ceo = await ceoWithTwoModels();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    const patched = await app.request("PATCH", `/api/agents/${ceo.id}/model`, {
      json: { model: OFFLINE_SMALL_MODEL_ID },
    });
    expect(patched.body).toMatchObject({ session: { action: "switch" } });
    const second = await wake(ceo.id);
    expect(second.sessions).toEqual([{ action: "resumed", harness: "pi", id: first.snapshot!.sessionId }]);
    expect(second.snapshot).toMatchObject({ model: OFFLINE_SMALL_MODEL_ID, reserveTokens: 3_200 });
  });
});
