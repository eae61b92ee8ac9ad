// The server's own behaviour, over plain HTTP and the SDKs: the request log (memory and JSONL),
// refusals in the right vendor's format, authentication, compressed bodies, policy failures,
// latency and shutdown with a request still hanging.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { echo, reply, scripted, startStandin, type StandinServer } from "./index.js";

let server: StandinServer;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const MODEL = "claude-standin-1";
const anthropic = (options: ConstructorParameters<typeof Anthropic>[0] = {}) =>
  new Anthropic({ apiKey: "k", baseURL: server.anthropicBaseUrl, ...options });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("stand-in server", () => {
  it("logs every request in memory and as JSON lines, model calls with their normalised request", async () => {
    dir = await mkdtemp(join(tmpdir(), "standin-"));
    const logFile = join(dir, "requests.jsonl");
    server = await startStandin({ policy: echo, logFile });
    await anthropic().messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });
    await anthropic().messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    await fetch(`${server.url}/v1/nothing`);
    expect(server.requests.map((r) => [r.seq, r.endpoint, r.status])).toEqual([
      [1, "messages", 200],
      [2, "count_tokens", 200],
      [3, "other", 404],
    ]);
    expect(server.modelCalls()).toHaveLength(1);
    expect(server.modelCalls()[0]!.request).toMatchObject({ wire: "anthropic", model: MODEL, stream: false });
    await server.close();
    const lines = (await readFile(logFile, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.endpoint)).toEqual(["messages", "count_tokens", "other"]);
    expect(lines[0].request.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    expect(JSON.parse(lines[0].rawBody)).toMatchObject({ model: MODEL });
    expect(lines[0].answered).toMatchObject({ kind: "answer", usage: { output: expect.any(Number) } });
  });

  it("refuses an unknown route, bad JSON and a missing field in the vendor's own error format", async () => {
    server = await startStandin({ policy: echo });
    const route = await fetch(`${server.url}/v1/embeddings`, { method: "POST", body: "{}" });
    expect(route.status).toBe(404);
    expect(((await route.json()) as { error: { message: string } }).error.message).toMatch(
      /^stand-in: no route POST \/v1\/embeddings \(routes: POST \/v1\/messages/,
    );
    const badJson = await post("/v1/messages", "{nope");
    expect(await badJson.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringMatching(/not JSON/) },
    });
    const noMax = await post("/v1/messages", JSON.stringify({ model: MODEL, messages: [] }));
    expect(noMax.status).toBe(400);
    expect(await noMax.json()).toMatchObject({
      error: { message: expect.stringMatching(/^max_tokens: Field required/) },
    });
    const chat = await post(
      "/v1/chat/completions",
      JSON.stringify({ messages: [{ role: "user", content: "x" }] }),
    );
    expect(await chat.json()).toEqual({
      error: { message: "model: Field required", type: "invalid_request_error", param: null, code: null },
    });
    expect(route.headers.get("x-cadre-standin")).toBe("1");
  });

  it("with digests, lists the models as Ollama's GET /api/tags does; repoint changes a name's digest; without, no such route", async () => {
    server = await startStandin({ policy: echo, digests: { "llama3.1:8b": "aaa111" } });
    const tags = async () =>
      ((await (await fetch(`${server.url}/api/tags`)).json()) as { models: Array<Record<string, unknown>> })
        .models;
    expect((await tags()).map((m) => [m["name"], m["model"], m["digest"]])).toEqual([
      ["llama3.1:8b", "llama3.1:8b", "aaa111"],
    ]);
    server.repoint("llama3.1:8b", "bbb222");
    expect((await tags()).map((m) => m["digest"])).toEqual(["bbb222"]);
    await server.close();
    server = await startStandin({ policy: echo });
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(404);
  });

  it("with an apiKey, a request without it gets the vendor's 401", async () => {
    server = await startStandin({ policy: echo, apiKey: "sk-right" });
    const wrong = await anthropic({ apiKey: "sk-wrong", maxRetries: 0 })
      .messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(Anthropic.AuthenticationError);
    const openai = new OpenAI({ apiKey: "sk-right", baseURL: server.openaiBaseUrl });
    const ok = await openai.chat.completions.create({
      model: "gpt-standin-1",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(ok.choices[0]!.message.content).toBe("echo (stand-in): hi");
  });

  it("reads a gzip-compressed body", async () => {
    server = await startStandin({ policy: echo });
    const body = gzipSync(JSON.stringify({ model: "m", messages: [{ role: "user", content: "zipped" }] }));
    const res = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body,
    });
    expect(
      ((await res.json()) as { choices: [{ message: { content: string } }] }).choices[0].message.content,
    ).toBe("echo (stand-in): zipped");
  });

  it("a policy that throws or returns no reply is a 500 saying so, which the SDKs do not retry", async () => {
    server = await startStandin({
      policy: scripted([
        () => {
          throw new Error("boom");
        },
        () => ({ content: "not a list" }) as never,
      ]),
    });
    for (const expected of [
      /stand-in policy failed: boom/,
      /stand-in policy failed: it returned an invalid reply: reply.content must be a list/,
    ]) {
      const error = await anthropic()
        .messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      expect((error as Error).message).toMatch(expected);
    }
    expect(server.requests).toHaveLength(2);
  });

  it("a scripted policy that runs out answers a 400 that says so", async () => {
    server = await startStandin({ policy: scripted(["only one"]) });
    const ask = () =>
      anthropic().messages.create({
        model: MODEL,
        max_tokens: 8,
        messages: [{ role: "user", content: "hi" }],
      });
    await ask();
    await expect(ask()).rejects.toThrow(
      /scripted policy exhausted: 1 replies scripted, this is model call 2/,
    );
  });

  it("waits the configured latency before the first byte", async () => {
    server = await startStandin({ policy: echo, latency: { firstByteMs: 300 } });
    const started = Date.now();
    await anthropic().messages.create({
      model: MODEL,
      max_tokens: 8,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("closes while a request hangs; the client sees the connection end", async () => {
    server = await startStandin({ policy: scripted([reply.hang()]) });
    const pending = anthropic({ maxRetries: 0 })
      .messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    while (server.requests[0]?.answered?.kind !== "hang") await new Promise((r) => setTimeout(r, 10));
    await server.close();
    expect(await pending).toBeInstanceOf(Anthropic.APIConnectionError);
  });
});
