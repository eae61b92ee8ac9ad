// Readiness of a Codex connector at a Responses-only model server (no `GET /models`): a minimal
// request says whether it answers, and which model served it. The server is the loopback stand-in
// behind a front that has no model list, as such servers do.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REAL_CODEX } from "@cadre/core/testing";
import { reply, scripted, startStandin, type StandinServer } from "@cadre/standin";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProbeCache } from "./probe-cache.js";
import { checkReadiness } from "./readiness.js";

let dir: string;
let standin: StandinServer | undefined;
let front: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-responses-only-"));
});
afterEach(async () => {
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  front = undefined;
  await standin?.close();
  standin = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The stand-in's Responses route only: every other path answers 404, as a Responses-only server does. */
async function responsesOnly(answer: ReturnType<typeof reply.text>): Promise<string> {
  standin = await startStandin({ policy: scripted([answer]) });
  const target = new URL(standin.openaiBaseUrl);
  front = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/responses") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: "POST", headers: req.headers },
      (answerRes) => {
        res.writeHead(answerRes.statusCode ?? 502, answerRes.headers);
        answerRes.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`;
}

const codexAt = (baseUrl: string) => ({
  kind: "codex" as const,
  config: { baseUrl, apiKeyEnv: "STANDIN_KEY", models: [{ id: "gpt-5-codex", contextWindow: 200_000 }] },
  enabledModels: ["gpt-5-codex"],
});

describe.skipIf(!REAL_CODEX)("a Codex connector at a Responses-only server", () => {
  it("is ready when a minimal request answers, and says the server has no model list", async () => {
    const baseUrl = await responsesOnly(reply.text("ready"));
    const env = { PATH: process.env["PATH"] ?? "", HOME: dir, OPENAI_API_KEY: "k", STANDIN_KEY: "k" };
    const r = await checkReadiness(codexAt(baseUrl), env, new ProbeCache());
    expect(r.ready, r.missing).toBe(true);
    const endpoint = r.probes!.find((p) => p.kind === "endpoint")!;
    expect(endpoint).toMatchObject({
      status: "ok",
      detail: "has no model list; a minimal request for gpt-5-codex answered",
    });
    expect(standin!.modelCalls().map((c) => c.request.model)).toEqual(["gpt-5-codex"]);
  });

  it("says so when the model that answered is another one (a drift)", async () => {
    const baseUrl = await responsesOnly({ ...reply.text("ready"), model: "gpt-5-mini-2025-08-07" });
    const env = { PATH: process.env["PATH"] ?? "", HOME: dir, OPENAI_API_KEY: "k", STANDIN_KEY: "k" };
    const r = await checkReadiness(codexAt(baseUrl), env, new ProbeCache());
    expect(r.probes!.find((p) => p.kind === "endpoint")!.detail).toBe(
      'has no model list; a minimal request for gpt-5-codex answered, but it was served by "gpt-5-mini-2025-08-07" (a drift)',
    );
  });
});
