// The rate gateway on its own: retry-after in its three forms, a request forwarded byte for byte
// (streamed answers included), and a 429 passed on with x-should-retry: false once retries are spent.
import OpenAI from "openai";
import { rateLimited, plumbingCeo, scripted, startStandin } from "@cadre/standin";
import { describe, expect, it } from "vitest";
import { retryAfterMs, startRateGateway } from "./rate-gateway.js";

describe("retry-after", () => {
  it("reads seconds (fractions too), retry-after-ms and an HTTP date", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "0.25" }))).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "120", "retry-after": "9" }))).toBe(120);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("the gateway", () => {
  it("forwards an SDK's streamed request and retries a 429 after its retry-after, unseen by the SDK", async () => {
    const server = await startStandin({
      policy: rateLimited(scripted(["Hello from behind the gateway."]), {
        limited: [0],
        retryAfterSeconds: 0.2,
      }),
    });
    const gateway = await startRateGateway({ upstream: server.openaiBaseUrl, concurrency: 3 });
    try {
      // maxRetries 0: had the 429 reached the SDK, the call would fail.
      const client = new OpenAI({ baseURL: gateway.url, apiKey: "standin", maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: "m-1",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      expect(text).toBe("Hello from behind the gateway.");
      // The stand-in said what it is on every response, the 429 included: the gateway read it.
      expect(gateway.standin()).toMatch(/x-cadre-standin header/);
      expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
      expect(gateway.stats()).toMatchObject({
        requests: 1,
        attempts: 2,
        rateLimited: 1,
        retries: 1,
        lowestLimit: 1,
      });
      expect(gateway.timeline).toEqual([
        { step: "send", request: 1 },
        { step: "429", request: 1, waitMs: 200, from: "retry-after" },
        { step: "send", request: 1 },
      ]);
    } finally {
      await gateway.close();
      await server.close();
    }
  });

  it("with no retry-after it backs off (doubling); past maxRetries the 429 reaches the client with x-should-retry: false", async () => {
    const server = await startStandin({ policy: rateLimited(plumbingCeo(), { limited: () => true }) });
    const gateway = await startRateGateway({
      upstream: server.openaiBaseUrl,
      concurrency: 1,
      maxRetries: 2,
      backoffMs: 10,
    });
    try {
      const res = await fetch(`${gateway.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m-1", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(res.status).toBe(429);
      expect(res.headers.get("x-should-retry")).toBe("false");
      expect(((await res.json()) as { error: { type: string } }).error).toBeDefined();
      expect(gateway.timeline.filter((s) => s.step === "429").map((s) => [s.waitMs, s.from])).toEqual([
        [10, "back-off"],
        [20, "back-off"],
        [40, "back-off"],
      ]);
      expect(gateway.stats()).toMatchObject({ attempts: 3, retries: 2, gaveUp: 1 });
      expect(server.modelCalls()).toHaveLength(3);
      // A model server that does not answer at all: 502, naming it.
      await server.close();
      const down = await fetch(`${gateway.url}/chat/completions`, { method: "POST", body: "{}" });
      expect(down.status).toBe(502);
      expect(await down.text()).toMatch(/rate gateway: http:\/\/127\.0\.0\.1:\d+\/v1 did not answer/);
    } finally {
      await gateway.close();
      await server.close();
    }
  });
});
