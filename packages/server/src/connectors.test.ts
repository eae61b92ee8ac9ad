// Connectors over HTTP: add with a declared local model,
// readiness that says whether the endpoint answered (and when, and what failed), test with one real
// request, remove refused while in use, secrets refused at any depth and never shown to an agent,
// depth and size capped with a 400. The endpoint is the loopback stand-in (a real OpenAI / Anthropic
// wire); nothing else is faked.
import { ProbeCache } from "@cadre/company";
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiCompany, apiKey, testApp, type TestApp } from "./testing/harness.js";

const MODEL = "qwen2.5:14b-instruct-q4_K_M";
let standin: StandinServer;
/** A loopback URL where nothing listens (a stand-in's port, once it closed). */
let down: string;
let app: TestApp;
let company: { id: string; ceoAgentId: string };

beforeAll(async () => {
  standin = await startStandin({ policy: echo, models: [MODEL], apiKey: "local-secret-value-123" });
  const gone = await startStandin({ policy: echo });
  down = gone.openaiBaseUrl;
  await gone.close();
});
afterAll(async () => standin.close());
beforeEach(async () => {
  app = await testApp({ env: { LOCAL_KEY: "local-secret-value-123" } });
  company = await apiCompany(app);
});
afterEach(async () => app.close());

const local = (over: Record<string, unknown> = {}) => ({
  id: "local",
  kind: "openai-compatible",
  config: {
    baseUrl: standin.openaiBaseUrl,
    apiKeyEnv: "LOCAL_KEY",
    models: [{ id: MODEL, contextWindow: 32768 }],
  },
  ...over,
});

const post = (body: unknown) =>
  app.request("POST", `/api/companies/${company.id}/connectors`, { json: body });

describe("adding a connector", () => {
  it("declares a local model with its window; the endpoint's answer is its readiness, with when it was checked", async () => {
    const before = Date.now();
    const r = await post(local());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      id: "local",
      kind: "openai-compatible",
      enabledModels: [MODEL],
      models: [{ id: MODEL, contextWindow: 32768, declared: true }],
      ready: true,
      probes: [{ kind: "endpoint", target: `${standin.openaiBaseUrl}/models`, status: "ok" }],
    });
    expect(Date.parse(r.body.checkedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(r.body)).not.toContain("local-secret-value-123");
    // The stand-in was asked for its model list, with the key from the named variable.
    const asked = standin.requests.filter((q) => q.method === "GET" && q.path.endsWith("/models"));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked[0]?.status).toBe(200);
    const list = await app.request("GET", `/api/companies/${company.id}/connectors`);
    expect(list.body.items.map((c: { id: string; ready: boolean }) => [c.id, c.ready])).toEqual([
      ["offline", true],
      ["local", true],
    ]);
    const view = await app.request("GET", `/api/companies/${company.id}`);
    expect(view.body.connectors).toEqual([
      { id: "offline", kind: "offline", ready: true, checkedAt: null },
      { id: "local", kind: "openai-compatible", ready: true, checkedAt: r.body.checkedAt },
    ]);
  });

  it("an endpoint that does not answer is not ready: the view says what failed and when it was checked", async () => {
    const r = await post(local({ config: { baseUrl: down, models: [{ id: MODEL, contextWindow: 32768 }] } }));
    expect(r.status).toBe(201);
    expect(r.body.ready).toBe(false);
    expect(r.body.missing).toMatch(
      /^endpoint check failed: GET http:\/\/127\.0\.0\.1:\d+\/v1\/models: connection refused \(ECONNREFUSED\)$/,
    );
    expect(r.body.probes[0]).toMatchObject({
      status: "failed",
      error: expect.stringContaining("ECONNREFUSED"),
    });
    expect(typeof r.body.checkedAt).toBe("string");
    // A key the endpoint refuses is named by its variable, never shown.
    const refused = await testApp({ env: { LOCAL_KEY: "wrong-key-value-456" } });
    try {
      const c = await apiCompany(refused);
      const bad = await refused.request("POST", `/api/companies/${c.id}/connectors`, { json: local() });
      expect(bad.body.missing).toMatch(/answered 401: the key in LOCAL_KEY was refused/);
      expect(JSON.stringify(bad.body)).not.toContain("wrong-key-value-456");
    } finally {
      await refused.close();
    }
  });

  it("refuses floating tags and undeclared local ids, naming what is allowed; nothing is written", async () => {
    const before = await app.store.counts();
    const floating = await post(
      local({
        config: { baseUrl: standin.openaiBaseUrl, models: [{ id: "mistral-latest", contextWindow: 8192 }] },
      }),
    );
    expect(floating.status).toBe(400);
    expect(floating.body.error.fields["config.models[0].id"]).toMatch(
      /floating tag \(latest\).*qwen2\.5:14b-instruct-q4_K_M/,
    );
    const latest = await post(
      local({
        config: { baseUrl: standin.openaiBaseUrl, models: [{ id: "qwen2.5:latest", contextWindow: 8192 }] },
      }),
    );
    expect(latest.body.error.fields["config.models[0].id"]).toMatch(/floating tag \(latest\)/);
    const undeclared = await post({
      kind: "openai-compatible",
      config: { baseUrl: standin.openaiBaseUrl },
      enabledModels: [MODEL],
    });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error.fields["enabledModels[0]"]).toMatch(/is not declared: .*--context-window N/);
    const vendorModels = await post({
      kind: "anthropic",
      config: { models: [{ id: MODEL, contextWindow: 8192 }] },
    });
    expect(vendorModels.body.error.fields["config.models"]).toMatch(/runs the registry's explicit ids/);
    expect(await app.store.counts()).toEqual(before);
  });
});

describe("secrets are referenced by environment-variable name, never stored", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      "a key name, nested",
      { baseUrl: "http://127.0.0.1:1/v1", auth: { apiKey: "anything" } },
      "config.auth.apiKey",
    ],
    [
      "a snake_case key name in a list",
      { baseUrl: "http://127.0.0.1:1/v1", extra: [{ api_key: "x" }] },
      "config.extra[0].api_key",
    ],
    [
      "a token key",
      { baseUrl: "http://127.0.0.1:1/v1", headers: { Authorization: "x" } },
      "config.headers.Authorization",
    ],
    [
      "an sk- value under an innocent key",
      { baseUrl: "http://127.0.0.1:1/v1", note: { a: { b: "sk-proj-abcdefghijklmnopqrstuvwx" } } },
      "config.note.a.b",
    ],
    ["a Bearer value", { baseUrl: "http://127.0.0.1:1/v1", header: "Bearer abcdefghijkl" }, "config.header"],
    ["credentials inside the base URL", { baseUrl: "https://user:pass@llm.example/v1" }, "config.baseUrl"],
    ["a key in the URL's query", { baseUrl: "https://llm.example/v1?api_key=abcdef" }, "config.baseUrl"],
  ];
  for (const [name, config, field] of cases) {
    it(`refuses ${name}, naming ${field}`, async () => {
      const before = await app.store.counts();
      const r = await post({
        id: "leaky",
        kind: "openai-compatible",
        enabledModels: [MODEL],
        config: { models: [{ id: MODEL, contextWindow: 8192 }], ...config },
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error.fields)).toContain(field);
      expect(r.body.error.message).toContain("reference it by environment-variable name (apiKeyEnv)");
      expect(await app.store.counts()).toEqual(before);
    });
  }

  it("names the variable instead: apiKeyEnv, maxTokens and tokenLimit are fine", async () => {
    const r = await post(
      local({ config: { ...local().config, maxTokens: 512, tokenLimit: 9, tokenEnv: "X" } }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it("an agent token reading connectors never sees a secret, even one an older build stored", async () => {
    await app.store.insertConnector({
      companyId: company.id,
      id: "legacy",
      kind: "openai-compatible",
      label: "old",
      enabledModels: [MODEL],
      config: {
        baseUrl: down,
        auth: { apiKey: "sk-old-secret-0123456789abcdef" },
        note: "Bearer old-secret-token-value",
      },
    });
    const token = await apiKey(app, company.ceoAgentId);
    const r = await app.request("GET", `/api/companies/${company.id}/connectors`, { token });
    expect(r.status).toBe(200);
    const legacy = r.body.items.find((c: { id: string }) => c.id === "legacy");
    expect(legacy.config).toEqual({
      baseUrl: down,
      auth: { apiKey: "[redacted]" },
      note: "[redacted]",
    });
    expect(JSON.stringify(r.body)).not.toMatch(/old-secret/);
  });
});

describe("depth and size are capped with a 400, never a 500", () => {
  const nested = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it("a config nested 9 levels, or over 16 KiB, is a 400 naming config", async () => {
    const deep = await post(local({ config: { ...local().config, x: nested(8) } }));
    expect(deep.status).toBe(400);
    expect(Object.keys(deep.body.error.fields)[0]).toMatch(/^config\.x(\.a)+$/);
    expect(deep.body.error.message).toMatch(/nested deeper than 8 levels/);
    const big = await post(local({ config: { ...local().config, blob: "x".repeat(17 * 1024) } }));
    expect(big.status).toBe(400);
    expect(big.body.error.fields["config"]).toMatch(/bytes of JSON; at most 16384/);
  });

  it("a 4,100-level body is a 400 on every route that reads one", async () => {
    const body = JSON.stringify({ config: nested(4100), name: "x", kind: "offline" });
    for (const path of [
      `/api/companies/${company.id}/connectors`,
      "/api/companies",
      `/api/agents/${company.ceoAgentId}/model`,
    ]) {
      const method = path.endsWith("/model") ? "PATCH" : "POST";
      const r = await app.request(method, path, {
        raw: body,
        headers: { "content-type": "application/json" },
      });
      expect(r.status, path).toBe(400);
      expect(r.body.error.message).toMatch(/nested more than 32 levels/);
    }
    // The store is as it was, and the server still answers.
    expect((await app.request("GET", `/api/companies/${company.id}/connectors`)).status).toBe(200);
  });
});

describe("testing a connector: one minimal real request", () => {
  it("ok, the model, the latency; the stand-in saw one chat call naming the model", async () => {
    await post(local());
    const calls = standin.modelCalls().length;
    const r = await app.request("POST", `/api/companies/${company.id}/connectors/local/test`, { json: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, connectorId: "local", model: MODEL, answered: true });
    expect(r.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.body.error).toBeUndefined();
    const made = standin.modelCalls().slice(calls);
    expect(made.map((c) => [c.request.wire, c.request.model])).toEqual([["openai-chat", MODEL]]);
  });

  it("a model the endpoint does not serve: ok false, the endpoint's own words, no secret", async () => {
    await post(
      local({
        enabledModels: [MODEL, "llama-3.1-8b-instruct"],
        config: {
          ...local().config,
          models: [
            { id: MODEL, contextWindow: 32768 },
            { id: "llama-3.1-8b-instruct", contextWindow: 8192 },
          ],
        },
      }),
    );
    const r = await app.request("POST", `/api/companies/${company.id}/connectors/local/test`, {
      json: { model: "llama-3.1-8b-instruct" },
    });
    expect(r.body).toMatchObject({ ok: false, answered: true, model: "llama-3.1-8b-instruct" });
    expect(r.body.error).toMatch(/answered 404/);
    expect(JSON.stringify(r.body)).not.toContain("local-secret-value-123");
    const notEnabled = await app.request("POST", `/api/companies/${company.id}/connectors/local/test`, {
      json: { model: "gpt-5-2025-08-07" },
    });
    expect(notEnabled.status).toBe(400);
    expect(notEnabled.body.error.message).toMatch(
      /allowed: qwen2\.5:14b-instruct-q4_K_M, llama-3\.1-8b-instruct/,
    );
  });

  it("an Anthropic gateway: the Messages wire, the key in x-api-key", async () => {
    const gateway = await testApp({ env: { GW_KEY: "local-secret-value-123" } });
    try {
      const c = await apiCompany(gateway);
      const add = await gateway.request("POST", `/api/companies/${c.id}/connectors`, {
        json: {
          kind: "anthropic",
          enabledModels: ["claude-haiku-4-5-20251001"],
          config: { baseUrl: standin.url, apiKeyEnv: "GW_KEY" },
        },
      });
      expect(add.body).toMatchObject({
        ready: true,
        probes: [{ target: `${standin.url}/v1/models`, status: "ok" }],
      });
      const calls = standin.modelCalls().length;
      const r = await gateway.request("POST", `/api/companies/${c.id}/connectors/anthropic/test`, {
        json: {},
      });
      // This stand-in serves only MODEL: its 404 for Haiku is an answer, in Anthropic's format.
      expect(r.body).toMatchObject({
        ok: false,
        answered: true,
        error: expect.stringMatching(/answered 404/),
      });
      expect(
        standin
          .modelCalls()
          .slice(calls)
          .map((x) => x.request.wire),
      ).toEqual(["anthropic"]);
    } finally {
      await gateway.close();
    }
  });
});

describe("codex with a model provider's base URL: the Responses wire", () => {
  it("declares its model with a window; readiness asks the endpoint; the test is one Responses call", async () => {
    const codex = await testApp({
      env: { ...process.env, CODEX_API_KEY: "local-secret-value-123", LOCAL_KEY: "local-secret-value-123" },
    });
    try {
      const c = await apiCompany(codex);
      const add = await codex.request("POST", `/api/companies/${c.id}/connectors`, {
        json: {
          id: "codex-local",
          kind: "codex",
          config: {
            baseUrl: standin.openaiBaseUrl,
            apiKeyEnv: "LOCAL_KEY",
            models: [{ id: MODEL, contextWindow: 32768 }],
          },
        },
      });
      expect(add.status, JSON.stringify(add.body)).toBe(201);
      expect(add.body).toMatchObject({
        enabledModels: [MODEL],
        models: [{ id: MODEL, contextWindow: 32768, declared: true }],
        probes: expect.arrayContaining([
          expect.objectContaining({
            kind: "endpoint",
            target: `${standin.openaiBaseUrl}/models`,
            status: "ok",
          }),
          expect.objectContaining({ kind: "harness", target: "Codex executable and credentials" }),
        ]),
      });
      const calls = standin.modelCalls().length;
      const r = await codex.request("POST", `/api/companies/${c.id}/connectors/codex-local/test`, {
        json: {},
      });
      expect(r.body).toMatchObject({ ok: true, model: MODEL, target: `${standin.openaiBaseUrl}/responses` });
      expect(
        standin
          .modelCalls()
          .slice(calls)
          .map((x) => [x.request.wire, x.request.model]),
      ).toEqual([["openai-responses", MODEL]]);
      // Without a base URL, codex runs the registry's OpenAI ids: declared models are refused.
      const bare = await codex.request("POST", `/api/companies/${c.id}/connectors`, {
        json: { kind: "codex", config: { models: [{ id: MODEL, contextWindow: 32768 }] } },
      });
      expect(bare.body.error.fields["config.models"]).toMatch(/give config\.baseUrl too/);
    } finally {
      await codex.close();
    }
  });
});

describe("removing a connector, and moving agents between connectors", () => {
  it("refuses while an active agent runs on it, naming them; after the move it goes, and leaves every list", async () => {
    await post(local());
    const hire = await app.request("POST", `/api/companies/${company.id}/agents`, {
      json: {
        name: "CTO",
        role: "Chief Technology Officer",
        description: "Builds.",
        connectorId: "local",
        model: MODEL,
      },
    });
    expect(hire.status, JSON.stringify(hire.body)).toBe(201);
    const move = await app.request("PATCH", `/api/agents/${company.ceoAgentId}/model`, {
      json: { model: MODEL, connectorId: "local" },
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    expect(move.body).toMatchObject({
      agent: { connectorId: "local", model: MODEL },
      from: "offline-scripted-1",
      fromConnectorId: "offline",
      changed: true,
    });
    const refused = await app.request("DELETE", `/api/companies/${company.id}/connectors/local`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/in use by CEO \(agt_\w+\), CTO \(agt_\w+\)/);
    await app.request("PATCH", `/api/agents/${company.ceoAgentId}/model`, {
      json: { model: "offline-scripted-1", connectorId: "offline" },
    });
    await app.request("DELETE", `/api/agents/${hire.body.id}`);
    const removed = await app.request("DELETE", `/api/companies/${company.id}/connectors/local`);
    expect(removed.status).toBe(200);
    expect(
      (await app.request("GET", `/api/companies/${company.id}/connectors`)).body.items.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual(["offline"]);
    // The terminated CTO's record still says where it ran; the id can be added again.
    expect((await app.store.getAgent(hire.body.id))?.connectorId).toBe("local");
    expect((await post(local())).status).toBe(201);
    const offline = await app.request("DELETE", `/api/companies/${company.id}/connectors/offline`);
    expect(offline.status).toBe(409);
    expect(offline.body.error.message).toMatch(/built in/);
  });

  it("a move to a connector that is not ready, unknown, or does not enable the model is refused, naming why", async () => {
    await post(
      local({
        id: "down",
        config: { baseUrl: down, models: [{ id: MODEL, contextWindow: 32768 }] },
      }),
    );
    await post(local());
    const path = `/api/agents/${company.ceoAgentId}/model`;
    const notReady = await app.request("PATCH", path, { json: { model: MODEL, connectorId: "down" } });
    expect(notReady.status).toBe(400);
    expect(notReady.body.error.message).toMatch(
      /connector "down" is not ready: endpoint check failed: .*connection refused/,
    );
    const unknown = await app.request("PATCH", path, { json: { model: MODEL, connectorId: "nope" } });
    expect(unknown.body.error.message).toMatch(
      /"nope" is not one of this company's connectors; its connectors: offline, down, local/,
    );
    const notEnabled = await app.request("PATCH", path, {
      json: { model: "offline-scripted-1", connectorId: "local" },
    });
    expect(notEnabled.body.error.message).toMatch(
      /"offline-scripted-1" is not enabled on connector "local" of CEO; allowed on connector "local": qwen2\.5:14b-instruct-q4_K_M/,
    );
    expect((await app.store.getAgent(company.ceoAgentId))?.connectorId).toBe("offline");
    expect(await app.store.listActivity(company.id, { type: "agent.model_changed" })).toEqual([]);
  });
});

describe("readiness is read from cached probes, refreshed off the request path", () => {
  it("a failed check is kept for a while, then asked again: a server that comes up becomes ready", async () => {
    let now = Date.parse("2025-06-01T00:00:00.000Z");
    const probes = new ProbeCache({ now: () => now, failedTtlMs: 10_000 });
    const late = await startStandin({ policy: echo });
    const port = new URL(late.url).port;
    await late.close();
    const own = await testApp({ probes });
    try {
      const c = await apiCompany(own);
      const body = {
        id: "late",
        kind: "openai-compatible",
        config: { baseUrl: `http://127.0.0.1:${port}/v1`, models: [{ id: MODEL, contextWindow: 32768 }] },
      };
      const added = await own.request("POST", `/api/companies/${c.id}/connectors`, { json: body });
      expect(added.body).toMatchObject({ ready: false, checkedAt: "2025-06-01T00:00:00.000Z" });
      const up = await startStandin({ policy: echo, port: Number(port) });
      try {
        now += 5_000; // still fresh: the failure is what the list says, and no probe runs
        const list = async () =>
          (await own.request("GET", `/api/companies/${c.id}/connectors`)).body.items[1];
        expect(await list()).toMatchObject({ ready: false, checkedAt: "2025-06-01T00:00:00.000Z" });
        now += 6_000; // stale: the list answers from the cache and refreshes in the background
        await list();
        await own.cadre.readiness.refreshCompany(c.id);
        expect(await list()).toMatchObject({ ready: true, checkedAt: "2025-06-01T00:00:11.000Z" });
      } finally {
        await up.close();
      }
    } finally {
      await own.close();
    }
  });
});
