// The connector rules in the company layer: what counts as a credential (by key and by value), the
// config's depth and size limits (no input can exhaust the stack), the probe cache (time to live,
// timeout, one run per probe at a time, never inside a transaction), and hire_agent reading
// readiness from the cache — a failure or a probe never run is a refusal naming it, with no I/O.
import { openStore, type Store, WorkInsideTransactionError } from "@cadre/store";
import { takeTransactionViolations } from "../../../store/src/testing/no-io-in-transactions.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { toolDefinition } from "../tools/entry.js";
import { hireAgentTool } from "../tools/hire-agent.js";
import { configProblems, redactConfig } from "./connector-config.js";
import { scrubSecrets, secretKeyProblem, secretValueProblem } from "./credential-shapes.js";
import { ProbeCache, type ProbeSpec } from "./probe-cache.js";
import { probeSpecs, readiness } from "./readiness.js";
import { buildAgentPrompt } from "../prompts/build.js";

describe("what looks like a credential", () => {
  it("by its key: apiKey, api_key, x-api-key, accessToken, password, client_secret, Authorization — not apiKeyEnv, maxTokens, tokenLimit", () => {
    for (const key of [
      "apiKey",
      "api_key",
      "x-api-key",
      "API_KEY",
      "accessToken",
      "token",
      "password",
      "client_secret",
      "Authorization",
      "privateKey",
      "secret",
      "sessionKey",
    ])
      expect(secretKeyProblem(key, "v"), key).toBeDefined();
    for (const key of [
      "apiKeyEnv",
      "tokenEnv",
      "maxTokens",
      "tokenLimit",
      "model",
      "baseUrl",
      "keyboard",
      "monkey",
      "authorName",
    ])
      expect(secretKeyProblem(key, "v"), key).toBeUndefined();
    // "key" or "auth" alone names a secret only when it holds one (a string), not a nested group.
    expect(secretKeyProblem("key", "abc")).toBeDefined();
    expect(secretKeyProblem("auth", { mode: "none" })).toBeUndefined();
  });

  it("by its value: sk-…, Bearer …, vendor token shapes, a JWT, a private key, credentials inside a URL", () => {
    for (const value of [
      "sk-ant-api03-abcdefghijklmnop",
      "sk-proj-abcdefghijklmnopqrst",
      "Bearer abcdefghij",
      "ghp_abcdefghijklmnopqrstuvwxyz0123",
      "AKIAABCDEFGHIJKLMNOP",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop",
      "-----BEGIN RSA PRIVATE KEY-----",
      "https://user:pass@llm.example/v1",
      "https://ghp_token@github.com/x",
      "https://llm.example/v1?api_key=abc",
      "cadre_agt_abcdefghijklmnopqrstu",
    ])
      expect(secretValueProblem(value), value).toBeDefined();
    for (const value of [
      "http://127.0.0.1:11434/v1",
      "qwen2.5:14b-instruct-q4_K_M",
      "OPENAI_API_KEY",
      "a sketch of a plan",
      "task-skills",
    ])
      expect(secretValueProblem(value), value).toBeUndefined();
  });

  it("scrubs an endpoint's error text: the key itself and anything shaped like one", () => {
    expect(
      scrubSecrets("Incorrect API key provided: sk-proj-abcdefghijklmnopqrst (key my-secret-9)", [
        "my-secret-9",
      ]),
    ).toBe("Incorrect API key provided: [redacted] (key [redacted])");
    expect(scrubSecrets("GET https://u:p@host/v1 failed")).toBe("GET https://[redacted]@host/v1 failed");
    // Its encodings too: base64 (a Basic header) and URL-encoded.
    const key = "local-key+with/odd=chars-12345";
    const echoed = `401 for ${Buffer.from(`user:${key}`).toString("base64")} at ?k=${encodeURIComponent(key)}`;
    expect(scrubSecrets(echoed, [key])).toMatch(/^401 for \S*\[redacted\]\S* at \?k=\[redacted\]$/);
  });
});

describe("config depth and size", () => {
  it("walks any depth without recursion: a 100,000-level config is one problem at the limit", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const problems = configProblems({ x: deep });
    expect(Object.keys(problems)).toEqual([`config.x${"[0]".repeat(7)}`]);
    expect(Object.values(problems)[0]).toMatch(/nested deeper than 8 levels/);
  });

  it("refuses reserved keys and secrets at any depth, each under its path, and the size over 16 KiB", () => {
    const raw = JSON.parse(
      '{"a":{"__proto__":{"x":1}},"b":[{"password":"x"}],"c":{"d":"Bearer 0123456789"}}',
    );
    expect(Object.keys(configProblems(raw))).toEqual([
      "config.a.__proto__",
      "config.b[0].password",
      "config.c.d",
    ]);
    expect(configProblems({ blob: "x".repeat(16 * 1024) })).toEqual({
      config: expect.stringMatching(/^is 16395 bytes of JSON; at most 16384/),
    });
    expect(
      configProblems({
        baseUrl: "http://127.0.0.1:11434/v1",
        models: [{ id: "llama3.1:8b", contextWindow: 8192 }],
      }),
    ).toEqual({});
  });

  it("redacts what an older store may hold, at any depth", () => {
    expect(
      redactConfig({ a: { apiKey: "x", list: ["sk-abcdefghijklmnopqrstu", "ok"] }, baseUrl: "http://h/v1" }),
    ).toEqual({
      a: { apiKey: "[redacted]", list: ["[redacted]", "ok"] },
      baseUrl: "http://h/v1",
    });
  });
});

describe("the probe cache", () => {
  const spec = (run: ProbeSpec["run"], key = "k"): ProbeSpec => ({
    key,
    kind: "endpoint",
    target: "http://h/v1/models",
    run,
  });

  it("keeps an ok outcome for its time to live, a failure for a shorter one, and says when it was checked", async () => {
    let now = Date.parse("2025-01-01T00:00:00.000Z");
    let runs = 0;
    let ok = false;
    const cache = new ProbeCache({ now: () => now, okTtlMs: 60_000, failedTtlMs: 10_000 });
    const s = spec(async () => (runs++, ok ? { ok: true } : { ok: false, error: "connection refused" }));
    expect(cache.peek(s)).toBeUndefined();
    await cache.refresh([s]);
    expect(cache.peek(s)).toMatchObject({
      ok: false,
      error: "connection refused",
      checkedAt: "2025-01-01T00:00:00.000Z",
    });
    now += 9_000;
    await cache.refresh([s]);
    expect(runs).toBe(1);
    now += 1_000;
    ok = true;
    await cache.refresh([s]);
    expect(cache.peek(s)).toMatchObject({ ok: true, checkedAt: "2025-01-01T00:00:10.000Z" });
    now += 59_000;
    await cache.refresh([s]);
    expect(runs).toBe(2);
    await cache.refresh([s], { force: true });
    expect(runs).toBe(3);
  });

  it("a probe that never answers fails at the timeout; concurrent refreshes share one run", async () => {
    const cache = new ProbeCache({ timeoutMs: 50 });
    let runs = 0;
    const hang = spec(() => (runs++, new Promise(() => {})));
    await Promise.all([cache.refresh([hang]), cache.refresh([hang]), cache.refresh([hang, hang])]);
    expect(runs).toBe(1);
    expect(cache.peek(hang)).toMatchObject({ ok: false, error: "no answer within 50 ms" });
  });

  it("refuses to run inside a store transaction (and the test guard sees it)", async () => {
    const store = await openStore({ memory: true });
    try {
      const cache = new ProbeCache();
      const error = await store
        .transaction(() => cache.refresh([spec(async () => ({ ok: true }))]))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkInsideTransactionError);
      expect(takeTransactionViolations().map((v) => v.what)).toEqual(["a connector readiness probe"]);
    } finally {
      await store.close();
    }
  });
});

describe("hire_agent reads readiness from the cache, inside its transaction, with no I/O", () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ memory: true });
  });
  afterEach(async () => store.close());

  it("a probe never run, then a failed one, refuse the hire naming it; once it answered, the hire goes through", async () => {
    const company = await createCompany(store, {
      name: "Acme",
      connectors: [
        {
          id: "local",
          kind: "openai-compatible",
          config: { baseUrl: "http://127.0.0.1:1/v1", models: [{ id: "llama3.1:8b", contextWindow: 8192 }] },
        },
      ],
    });
    const state = await loadCompanyState(store, company.id);
    const local = state.connectors.find((c) => c.id === "local")!;
    const probes = new ProbeCache();
    const tool = toolDefinition(hireAgentTool, store, {
      companyId: company.id,
      agentId: state.ceo.id,
      via: "tool",
      runId: null,
      probes,
    });
    const hire = (name: string) =>
      tool.execute(
        {
          name,
          role: "Chief Technology Officer",
          description: "Builds.",
          connectorId: "local",
          model: "llama3.1:8b",
        },
        { toolCallId: name, signal: undefined },
      );
    expect((await hire("A")).content[0]).toMatchObject({
      text: expect.stringContaining(
        'connector "local" is not ready (endpoint http://127.0.0.1:1/v1/models not checked yet); ready connectors: offline',
      ),
    });
    const [endpoint] = probeSpecs(local);
    probes.record(
      endpoint!,
      { ok: false, error: "GET http://127.0.0.1:1/v1/models: connection refused (ECONNREFUSED)" },
      1,
    );
    expect((await hire("B")).content[0]).toMatchObject({
      text: expect.stringContaining(
        "is not ready (endpoint check failed: GET http://127.0.0.1:1/v1/models: connection refused (ECONNREFUSED))",
      ),
    });
    probes.record(endpoint!, { ok: true }, 2);
    expect(readiness(local, process.env, probes).ready).toBe(true);
    const hired = await hire("CTO");
    expect(hired.isError).toBe(false);
    expect((await store.listAgents(company.id)).map((a) => [a.name, a.connectorId])).toEqual([
      ["CEO", "offline"],
      ["CTO", "local"],
    ]);
  });
});

describe("the CEO's connectors section", () => {
  it("says what the probe found, even an endpoint's text with a time in it (copied like a record, MC-3)", async () => {
    const store = await openStore({ memory: true });
    try {
      const company = await createCompany(store, {
        name: "Acme",
        connectors: [
          {
            id: "local",
            kind: "openai-compatible",
            config: {
              baseUrl: "http://127.0.0.1:1/v1",
              models: [{ id: "llama3.1:8b", contextWindow: 8192 }],
            },
          },
        ],
      });
      const state = await loadCompanyState(store, company.id);
      const probes = new ProbeCache();
      const [endpoint] = probeSpecs(state.connectors.find((c) => c.id === "local")!);
      probes.record(
        endpoint!,
        { ok: false, error: "GET …/models answered 503: busy until 2025-01-01T10:00:00Z" },
        1,
      );
      const prompt = buildAgentPrompt({
        state,
        agent: state.ceo,
        mode: state.mode,
        memoryIndex: null,
        probes,
      });
      expect(prompt.systemPrompt).toContain(
        "- local: OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp). Not ready (endpoint check failed: GET …/models answered 503: busy until 2025-01-01T10:00:00Z). Models: llama3.1:8b",
      );
    } finally {
      await store.close();
    }
  });
});
