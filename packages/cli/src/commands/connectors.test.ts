// `cadre connectors` in-process, on a real SQLite data dir, against the loopback stand-in: the flags
// become the API's body (and are refused as the API refuses it, exit 2, one line naming the field,
// nothing written), list shows readiness with when it was checked and what failed, test makes one
// real request, remove is refused while an agent runs on it. Secrets: refused at any depth, never
// shown — locally and through --server with an agent's token.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { type RunningServer, startServer } from "@cadre/server";
import { openStore } from "@cadre/store";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OFFLINE_ENV, runCli } from "../testing/run-cli.js";
import { addInputFromFlags } from "./connectors.js";

const MODEL = "llama-3.1-8b-instruct";
let standin: StandinServer;
let down: string;
let dir: string;
let data: string[];

beforeAll(async () => {
  standin = await startStandin({ policy: echo });
  const gone = await startStandin({ policy: echo });
  down = gone.openaiBaseUrl;
  await gone.close();
});
afterAll(async () => standin.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-connectors-cli-"));
  data = ["--data", dir];
  expect((await runCli(["company", "create", "--name", "Acme", ...data])).code).toBe(0);
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const addLocal = (...extra: string[]) =>
  runCli([
    "connectors",
    "add",
    "local",
    "--kind",
    "openai-compatible",
    "--base-url",
    standin.openaiBaseUrl,
    "--models",
    MODEL,
    "--context-window",
    "8192",
    ...extra,
    ...data,
  ]);

const ids = async () =>
  ((await runCli(["connectors", "list", "--json", ...data])).json() as Array<{ id: string }>).map(
    (c) => c.id,
  );

describe("cadre connectors add", () => {
  it("builds the API's body from the flags: models declared with the window, the key by its variable's name", () => {
    expect(
      addInputFromFlags("local", {
        kind: "openai-compatible",
        "base-url": "http://127.0.0.1:11434/v1",
        models: "qwen2.5:14b-instruct-q4_K_M, llama3.1:8b",
        "context-window": "32768",
        "api-key-env": "OLLAMA_KEY",
        config: '{"compactThreshold":0.8}',
      }),
    ).toEqual({
      id: "local",
      kind: "openai-compatible",
      enabledModels: ["qwen2.5:14b-instruct-q4_K_M", "llama3.1:8b"],
      config: {
        compactThreshold: 0.8,
        baseUrl: "http://127.0.0.1:11434/v1",
        apiKeyEnv: "OLLAMA_KEY",
        models: [
          { id: "qwen2.5:14b-instruct-q4_K_M", contextWindow: 32768 },
          { id: "llama3.1:8b", contextWindow: 32768 },
        ],
      },
    });
  });

  it("adds a ready connector and says so: the endpoint answered, when it was checked", async () => {
    const r = await addLocal("--api-key-env", "LOCAL_KEY");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^added connector local to Acme \(cmp_\w+\)\n/);
    expect(r.out).toMatch(
      /local \(openai-compatible\) ready — endpoint http:\/\/127\.0\.0\.1:\d+\/v1\/models answered in \d+ ms \(checked 20/,
    );
    expect(r.out).toContain(`models: ${MODEL} (8192 tokens, declared)`);
    const list = await runCli(["connectors", "list", ...data]);
    expect(list.out).toMatch(
      /^offline \(offline\) ready\n {4}models: offline-scripted-1 \(128000 tokens\)\n/,
    );
  });

  it("refuses, with exit 2 and one line naming what is wrong and what is allowed; nothing is written", async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ["--config", '{"auth":{"apiKey":"sk-proj-0123456789abcdefghij"}}'],
        /`config\.auth\.apiKey` looks like a credential .*reference it by environment-variable name \(apiKeyEnv\)/,
      ],
      [
        ["--config", '{"headers":{"x":"Bearer 0123456789abcdef"}}'],
        /`config\.headers\.x` looks like a credential \(the value looks like an Authorization header value\)/,
      ],
      [
        ["--config", `{"x":${"[".repeat(4100)}${"]".repeat(4100)}}`],
        /`config\.x(\[0\])+` is nested deeper than 8 levels/,
      ],
      [["--config", "{nope"], /--config is not valid JSON/],
      [
        ["--config", '{"baseUrl":"http://elsewhere/v1"}'],
        /--base-url and --config's value disagree; give it once/,
      ],
    ];
    for (const [extra, message] of cases) {
      const r = await addLocal(...extra);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
    const floating = await runCli([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      standin.openaiBaseUrl,
      "--models",
      "qwen2.5:latest",
      "--context-window",
      "8192",
      ...data,
    ]);
    expect(floating.code).toBe(2);
    expect(floating.err).toMatch(/model id "qwen2\.5:latest" is a floating tag \(latest\)/);
    const undeclared = await runCli([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      standin.openaiBaseUrl,
      "--models",
      MODEL,
      ...data,
    ]);
    expect(undeclared.err).toMatch(/is not declared: declare it with its context window: --context-window N/);
    const windowAlone = await runCli([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--context-window",
      "8192",
      ...data,
    ]);
    expect(windowAlone.err).toMatch(/--context-window declares the models of --models; give --models too/);
    const noKind = await runCli(["connectors", "add", "local", ...data]);
    expect(noKind.err).toMatch(
      /--kind is required; one of offline, anthropic, openai, openai-compatible, claude-code, codex/,
    );
    expect(await ids()).toEqual(["offline"]);
  });
});

describe("cadre connectors add: the session settings, checked at the door by the harness's rules", () => {
  it("refuses a value no wake could run with (exit 2, one line saying what is allowed, nothing written); a wake runs with what it accepts", async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"compactThreshold":5}', /`config\.compactThreshold` must be at most 1, got 5/],
      ['{"compactThreshold":0}', /`config\.compactThreshold` must be a fraction more than 0 and at most 1/],
      ['{"promptTimeoutMs":-1}', /`config\.promptTimeoutMs` must be from 1 to 2147483647, got -1/],
      ['{"promptTimeoutMs":"soon"}', /`config\.promptTimeoutMs` must be a whole number, got a string/],
      ['{"promptTimeoutMs":1e12}', /`config\.promptTimeoutMs` must be from 1 to 2147483647/],
      ['{"piTools":["grep"]}', /`config\.piTools\[0\]` must be one of: read, bash, edit, write, ls/],
    ];
    for (const [config, message] of cases) {
      const r = await addLocal("--config", config);
      expect(r.code, config).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
    expect(await ids()).toEqual(["offline"]);

    const ok = await addLocal("--config", '{"compactThreshold":0.5,"promptTimeoutMs":60000}');
    expect(ok.code, ok.err).toBe(0);
    const [ceo] = (await runCli(["agents", "list", "--json", ...data])).json() as Array<{ id: string }>;
    const moved = await runCli(["agents", "set-model", ceo!.id, MODEL, "--connector", "local", ...data]);
    expect(moved.code, moved.err).toBe(0);
    const woken = await runCli(["wake", ceo!.id, "--json", ...data]);
    expect(woken.code, woken.err).toBe(0);
    expect(woken.json()).toMatchObject({ terminal: "done" });
  });
});

describe("cadre connectors add: a model id is judged by what the endpoint serves, not by its spelling", () => {
  async function addAt(baseUrl: string, model: string) {
    return runCli([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      baseUrl,
      "--models",
      model,
      "--context-window",
      "8192",
      ...data,
    ]);
  }

  it("accepts ids that name no size when the endpoint lists them (gpt-5-codex, deployment names), and records what the listing says of them", async () => {
    const served = await startStandin({
      policy: echo,
      models: ["gpt-5-codex", "mistral-nemo-instruct-2407", "northwind-prod-deployment"],
    });
    try {
      for (const model of ["gpt-5-codex", "mistral-nemo-instruct-2407", "northwind-prod-deployment"]) {
        const r = await addAt(served.openaiBaseUrl, model);
        expect(r.code, r.err).toBe(0);
        expect(r.out).toContain(`models: ${model} (8192 tokens, declared)`);
        expect((await runCli(["connectors", "remove", "local", ...data])).code).toBe(0);
      }
    } finally {
      await served.close();
    }
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const [company] = await store.listCompanies();
      const added = (await store.listActivity(company!.id)).filter((a) => a.type === "connector.added");
      expect(added.map((a) => (a.data as { served?: unknown }).served)).toEqual([
        [{ id: "gpt-5-codex", fingerprint: expect.stringMatching(/^listing:[0-9a-f]{16}$/) }],
        [{ id: "mistral-nemo-instruct-2407", fingerprint: expect.stringMatching(/^listing:[0-9a-f]{16}$/) }],
        [{ id: "northwind-prod-deployment", fingerprint: expect.stringMatching(/^listing:[0-9a-f]{16}$/) }],
      ]);
    } finally {
      await store.close();
    }
  });

  it("refuses an untagged name an Ollama-style endpoint lists only with tags (its floating :latest), naming the tags; nothing is written", async () => {
    const ollama = await startStandin({
      policy: echo,
      models: ["llama3:latest", "llama3:8b-instruct-q4_K_M"],
    });
    try {
      const r = await addAt(ollama.openaiBaseUrl, "llama3");
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /`enabledModels\[0\]` model id "llama3" floats: the endpoint lists it only with tags.*Name the tag: llama3:8b-instruct-q4_K_M/,
      );
      expect(await ids()).toEqual(["offline"]);
      const tagged = await addAt(ollama.openaiBaseUrl, "llama3:8b-instruct-q4_K_M");
      expect(tagged.code, tagged.err).toBe(0);
    } finally {
      await ollama.close();
    }
  });
});

describe("cadre connectors add: what is missing or misspelt is said", () => {
  it("a model the endpoint does not list is named with what it lists; an endpoint with no URL says so, not only 'no enabled models'", async () => {
    const misspelt = await runCli([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      standin.openaiBaseUrl,
      "--models",
      "llama-3.1-8b-instrct",
      "--context-window",
      "8192",
      ...data,
    ]);
    expect(misspelt.code, misspelt.err).toBe(0);
    expect(misspelt.out).toMatch(
      /lists 1 model\(s\) \(standin-model\) and not llama-3\.1-8b-instrct: check the id's spelling/,
    );
    const bare = await runCli(["connectors", "add", "bare", "--kind", "openai-compatible", ...data]);
    expect(bare.out).toMatch(/NOT READY: config\.baseUrl .* is not set; no enabled models/);
  });
});

describe("cadre connectors list, test, remove", () => {
  it("a connector whose endpoint is down: NOT READY, what failed and when; test fails with exit 1 and the reason", async () => {
    const r = await runCli([
      "connectors",
      "add",
      "down",
      "--kind",
      "openai-compatible",
      "--base-url",
      down,
      "--models",
      MODEL,
      "--context-window",
      "8192",
      ...data,
    ]);
    expect(r.code, r.err).toBe(0);
    const list = await runCli(["connectors", "list", ...data]);
    expect(list.out).toMatch(
      /down \(openai-compatible\) NOT READY: endpoint check failed: GET http:\/\/127\.0\.0\.1:\d+\/v1\/models: connection refused \(ECONNREFUSED\) \(last check failed at 20\d\d-/,
    );
    const test = await runCli(["connectors", "test", "down", "--json", ...data]);
    expect(test.code).toBe(1);
    expect(test.json()).toMatchObject({
      ok: false,
      model: MODEL,
      error: expect.stringMatching(/connection refused/),
    });
    const show = await runCli(["company", "show", ...data]);
    expect(show.out).toMatch(
      / {2}down \(openai-compatible\) NOT READY: endpoint check failed: .*\(last check failed at /,
    );
  });

  it("test: ok, the model and the latency, from one real request (--json is { ok, model, latencyMs })", async () => {
    await addLocal();
    const calls = standin.modelCalls().length;
    const human = await runCli(["connectors", "test", "local", ...data]);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(
      new RegExp(
        `^ok — local answered ${MODEL.replace(/\./g, "\\.")} in \\d+ ms \\(http://127\\.0\\.0\\.1:\\d+/v1/chat/completions\\)`,
      ),
    );
    const json = await runCli(["connectors", "test", "local", "--json", ...data]);
    expect(json.json()).toMatchObject({ ok: true, model: MODEL, latencyMs: expect.any(Number) });
    expect(standin.modelCalls().length - calls).toBe(2);
  });

  it("remove: refused while the CEO runs on it, naming it; after the CEO moves back it goes", async () => {
    await addLocal();
    const ceo = (
      (await runCli(["agents", "list", "--json", ...data])).json() as Array<{ id: string; isCeo: boolean }>
    ).find((a) => a.isCeo)!.id;
    const moved = await runCli(["agents", "set-model", ceo, MODEL, "--connector", "local", ...data]);
    expect(moved.out).toBe(
      `CEO (${ceo}): offline-scripted-1 → ${MODEL} moved from connector offline to local; its next wake starts on it\n`,
    );
    const refused = await runCli(["connectors", "remove", "local", ...data]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      new RegExp(`connector "local" is in use by CEO \\(${ceo}\\); nothing was removed\\. Move it first`),
    );
    await runCli(["agents", "set-model", ceo, "offline-scripted-1", "--connector", "offline", ...data]);
    const removed = await runCli(["connectors", "remove", "local", ...data]);
    expect(removed.out).toBe("removed connector local (openai-compatible) from Acme\n");
    expect(await ids()).toEqual(["offline"]);
  });
});

describe("a reader never sees a secret: locally, and through --server with an agent's token", () => {
  let server: RunningServer;
  beforeEach(async () => {
    const store = await openStore({ path: join(dir, "cadre.db") });
    const [company] = await store.listCompanies();
    // As an older build could have stored it: a nested key and a bearer value in config.
    await store.insertConnector({
      companyId: company!.id,
      id: "legacy",
      kind: "openai-compatible",
      label: "old",
      enabledModels: [MODEL],
      config: {
        baseUrl: down,
        auth: { apiKey: "sk-leaked-0123456789abcdefgh" },
        header: "Bearer leaked-token-0123",
      },
    });
    await store.close();
  });
  afterEach(async () => server?.close());

  it("connectors list --json and company show --json redact it", async () => {
    for (const argv of [
      ["connectors", "list", "--json"],
      ["company", "show", "--json"],
    ]) {
      const r = await runCli([...argv, ...data]);
      expect(r.code).toBe(0);
      expect(r.out).not.toMatch(/leaked/);
      expect(r.out).toContain('"auth":{"apiKey":"[redacted]"}');
    }
  });

  it("cadre connectors list --server URL --token AGENT_TOKEN redacts it too", async () => {
    const store = await openStore({ path: join(dir, "cadre.db") });
    server = await startServer({ store, port: 0, env: {}, log: () => {}, dataDir: dir });
    const [company] = await store.listCompanies();
    const ceo = (await store.listAgents(company!.id)).find((a) => a.isCeo)!;
    const key = await fetch(`${server.url}/api/agents/${ceo.id}/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.operatorToken}`, "content-type": "application/json" },
      body: "{}",
    });
    const token = ((await key.json()) as { token: string }).token;
    const r = await runCli(
      ["connectors", "list", "--json", "--server", server.url, "--token", token],
      OFFLINE_ENV,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toMatch(/leaked/);
    expect(r.json().find((c: { id: string }) => c.id === "legacy").config).toEqual({
      baseUrl: down,
      auth: { apiKey: "[redacted]" },
      header: "[redacted]",
    });
    await server.close();
    await store.close();
  });
});
