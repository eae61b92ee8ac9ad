// Live evaluation, against loopback stand-ins and no key: per-sample caps
// enforced by the budget machinery and named in the trace, the run's --max-cost-usd (samples not
// started once it is spent), cost per call and per sample at the registry's price (unknown when no
// price, never 0), the rate gateway's 429 back-off, and the vendor kinds reaching the model
// through it. The real Claude Code and Codex binaries run the same way further down.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { usageCost, priceAt } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import {
  type Policy,
  rateLimited,
  plumbingCeo,
  reply,
  startStandin,
  type StandinServer,
} from "@cadre/standin";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import type { Trace } from "../trace/types.js";

const NO_KEYS = {
  PATH: process.env["PATH"] ?? "",
  HOME: tmpdir(),
  ANTHROPIC_API_KEY: "",
  OPENAI_API_KEY: "",
};
const ONE = ["empty-single-connector"];
const MODEL = "qwen2.5-14b-instruct";
const CLI = fileURLToPath(new URL("../../../cli/bin/cadre.js", import.meta.url));

let dir: string;
let server: StandinServer | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-live-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const all = (r: { traces: Map<string, Trace[]> }) => [...r.traces.values()].flat();

async function standin(policy: Policy = plumbingCeo()): Promise<StandinServer> {
  server = await startStandin({ policy });
  return server;
}

describe("per-sample caps", () => {
  it("a sample past its model-call or tool-call cap ends failed with the cap in its trace; defaults are printed; the run goes on", async () => {
    const notices: string[] = [];
    const calls = await runProfile({
      profile: "semantic",
      samples: 2,
      seed: 5,
      only: ONE,
      env: NO_KEYS,
      caps: { modelCalls: 2 },
      onNotice: (n) => notices.push(n),
    });
    expect(notices[0]).toMatch(
      /^caps per sample: 2 model calls, 60 tool calls, 500000 tokens, \$0\.5 cost, 300 s wall time; whole run: no cost limit/,
    );
    const traces = all(calls);
    expect(traces).toHaveLength(2);
    for (const t of traces) {
      expect(t).toMatchObject({
        terminal: "failed",
        cap: { kind: "model_calls", message: expect.stringContaining("--max-model-calls") },
      });
      // Two calls were sent and priced; the third was refused in code before it was sent.
      expect(t.cost?.calls).toHaveLength(2);
      // The budget machinery's own reason is recorded too: the run was stopped in code.
      expect(t.errors.join(" ")).toMatch(/cap of 2 model calls/);
      // The offline model costs exactly 0, and says so: a known price, not an unknown one.
      expect(t.cost).toMatchObject({ usd: 0, unpricedCalls: 0 });
    }
    expect(calls.caps).toMatchObject({ modelCalls: 2, toolCalls: 60 });

    const tools = await runProfile({
      profile: "semantic",
      samples: 1,
      seed: 5,
      only: ONE,
      env: NO_KEYS,
      caps: { toolCalls: 1 },
    });
    const [t] = all(tools);
    expect(t).toMatchObject({ terminal: "failed", cap: { kind: "tool_calls" } });
    // The call past the cap never ran: one hire at most.
    expect(t!.hires.length).toBeLessThanOrEqual(1);
    expect(t!.toolCalls.filter((c) => c.ok)).toHaveLength(1);
  });

  it("a sample past its wall time is cancelled and recorded as a failed sample, not a crash", async () => {
    const s = await standin(() => reply.hang());
    const result = await runProfile({
      profile: "semantic",
      samples: 1,
      only: ONE,
      env: NO_KEYS,
      connector: "openai-compatible",
      baseUrl: s.openaiBaseUrl,
      model: MODEL,
      caps: { wallTimeMs: 1500 },
    });
    const [t] = all(result);
    expect(t).toMatchObject({ terminal: "failed", source: "live", cap: { kind: "wall_time" } });
    expect(t!.cap!.message).toMatch(/wall-time cap of 2 s|wall-time cap of 1 s/);
  });
});

describe("cost: per call and per sample, and the run's --max-cost-usd", () => {
  const anthropic = async (extra: { samples: number; maxCostUsd?: number }) => {
    const s = server ?? (await standin());
    return runProfile({
      profile: "semantic",
      seed: 9,
      only: ONE,
      concurrency: 1,
      env: { ...NO_KEYS, ANTHROPIC_API_KEY: "sk-ant-standin-not-a-key" },
      connector: "anthropic",
      baseUrl: s.anthropicBaseUrl,
      ...extra,
    });
  };

  it("the vendor connector reaches the stand-in through the gateway; each call is priced at the registry's price of the model that served it", async () => {
    const result = await anthropic({ samples: 1 });
    const [t] = all(result);
    expect(t).toMatchObject({
      source: "live",
      terminal: "done",
      ceoRoute: "ceo-anthropic/claude-sonnet-4-5-20250929",
    });
    const price = priceAt("claude-sonnet-4-5-20250929", new Date().toISOString());
    expect(price).not.toBeNull();
    expect(t!.cost!.calls).toHaveLength(t!.usage.modelCalls);
    expect(t!.cost!.calls.every((c) => typeof c.usd === "number" && c.usd > 0)).toBe(true);
    // The sample's cost is its calls' sum, and its usage × price (to the cent and far below).
    const sum = t!.cost!.calls.reduce((n, c) => n + (c.usd as number), 0);
    expect(t!.cost!.usd).toBeCloseTo(sum, 12);
    const u = t!.usage;
    const usage = {
      input: u.inputTokens,
      output: u.outputTokens,
      cacheRead: u.cacheReadTokens,
      cacheWrite: u.cacheWriteTokens,
    };
    expect(t!.cost!.usd).toBeCloseTo(usageCost(usage, price!), 10);
    expect(result.cost).toMatchObject({ usd: t!.cost!.usd, trusted: true, limitUsd: null });
    expect(result.rateLimit).toMatchObject({ rateLimited: 0 });
    expect(result.rateLimit!.requests).toBe(server!.modelCalls().length);
  });

  it("openai: the same through the gateway, over the Responses wire, priced at the registry's price", async () => {
    const s = await standin();
    const result = await runProfile({
      profile: "semantic",
      samples: 1,
      seed: 2,
      only: ONE,
      env: { ...NO_KEYS, OPENAI_API_KEY: "sk-standin-not-a-key" },
      connector: "openai",
      baseUrl: s.openaiBaseUrl,
    });
    const [t] = all(result);
    expect(t).toMatchObject({
      source: "live",
      terminal: "done",
      ceoRoute: "ceo-openai/gpt-5-mini-2025-08-07",
    });
    expect(s.modelCalls().every((c) => c.path === "/v1/responses")).toBe(true);
    expect(t!.cost!.calls.map((c) => c.servedModel)).toEqual(
      s.modelCalls().map(() => "gpt-5-mini-2025-08-07"),
    );
    expect(t!.cost!.usd).toBeGreaterThan(0);
  });

  it("--max-cost-usd: the sample that reaches it ends failed (run_cost), the rest are not started, spend stays under it", async () => {
    const one = all(await anthropic({ samples: 1 }))[0]!.cost!.usd as number;
    const limit = one * 1.5;
    const notices: string[] = [];
    const result = await runProfile({
      profile: "semantic",
      seed: 9,
      only: ONE,
      samples: 4,
      concurrency: 1,
      env: { ...NO_KEYS, ANTHROPIC_API_KEY: "sk-ant-standin-not-a-key" },
      connector: "anthropic",
      baseUrl: server!.anthropicBaseUrl,
      maxCostUsd: limit,
      onNotice: (n) => notices.push(n),
    });
    const traces = all(result);
    expect(traces[0]).toMatchObject({ terminal: "done", cap: null });
    expect(traces[1]).toMatchObject({ terminal: "failed", cap: { kind: "run_cost" } });
    expect(traces).toHaveLength(2);
    expect(result.skipped).toEqual([
      {
        scenarioId: ONE[0],
        sample: 2,
        reason: expect.stringMatching(/--max-cost-usd of \$[\d.]+ was spent/),
      },
      { scenarioId: ONE[0], sample: 3, reason: expect.stringMatching(/--max-cost-usd/) },
    ]);
    expect(notices.join("\n")).toMatch(/skipped empty-single-connector#2/);
    expect(result.cost!.usd).toBeLessThanOrEqual(limit);
    expect(result.cost).toMatchObject({ trusted: true, limitUsd: limit });
  });

  it("a model with no known price: cost null (unknown), never 0, and the run says its cost cap cannot be trusted", async () => {
    const s = await standin();
    const notices: string[] = [];
    const result = await runProfile({
      profile: "semantic",
      samples: 1,
      only: ONE,
      env: NO_KEYS,
      connector: "openai-compatible",
      baseUrl: s.openaiBaseUrl,
      model: MODEL,
      maxCostUsd: 5,
      onNotice: (n) => notices.push(n),
    });
    expect(notices.join("\n")).toMatch(
      /warning: cost: no known price for model qwen2\.5-14b-instruct: its cost is unknown \(not 0\), so --max-cost-usd 5 and the per-sample cost cap cannot be trusted/,
    );
    const [t] = all(result);
    expect(t!.cost!.usd).toBeNull();
    expect(t!.cost!.unpricedCalls).toBe(t!.usage.modelCalls);
    expect(result.cost).toMatchObject({ usd: null, trusted: false, unpricedSamples: 1 });
  });
});

describe("429s: the rate gateway honours retry-after, retries a bounded number of times and lowers concurrency", () => {
  it("every 429 is retried after its retry-after, first, with nothing else let through meanwhile; the stand-in saw each retry", async () => {
    // Model calls 2, 3 and 6 (0-based) get a 429 with retry-after 0.3 s.
    const s = await standin(rateLimited(plumbingCeo(), { limited: [2, 3, 6], retryAfterSeconds: 0.3 }));
    const result = await runProfile({
      profile: "semantic",
      samples: 2,
      seed: 3,
      only: ONE,
      concurrency: 2,
      env: NO_KEYS,
      connector: "openai-compatible",
      baseUrl: s.openaiBaseUrl,
      model: MODEL,
    });
    expect(all(result).map((t) => t.terminal)).toEqual(["done", "done"]);
    const limited = s.requests.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    expect(result.rateLimit).toMatchObject({
      rateLimited: 3,
      retries: 3,
      gaveUp: 0,
      initialLimit: 2,
      lowestLimit: 1,
    });
    // Every request the stand-in answered came through the gateway, 429s and retries included.
    expect(result.rateLimit!.attempts).toBe(s.modelCalls().length);
    // Each 429's wait was its retry-after.
    expect(result.rateTimeline!.filter((x) => x.step === "429")).toEqual([
      expect.objectContaining({ waitMs: 300, from: "retry-after" }),
      expect.objectContaining({ waitMs: 300, from: "retry-after" }),
      expect.objectContaining({ waitMs: 300, from: "retry-after" }),
    ]);
    // Order: after a 429 no new request is let through until its retry has been sent: what is
    // sent in between are retries of requests refused before.
    const timeline = result.rateTimeline!;
    timeline.forEach((step, i) => {
      if (step.step !== "429") return;
      const retryAt = timeline.findIndex((x, j) => j > i && x.step === "send" && x.request === step.request);
      expect(retryAt).toBeGreaterThan(i);
      for (const between of timeline.slice(i + 1, retryAt))
        if (between.step === "send")
          expect(
            timeline.slice(0, i + 1).some((x) => x.step === "429" && x.request === between.request),
          ).toBe(true);
    });
    // The retry is the same request again (same body), as the stand-in received it.
    for (const refused of limited) {
      const again = s.requests.find((r) => r.seq > refused.seq && r.rawBody === refused.rawBody);
      expect(again?.status).toBe(200);
    }
  });

  it("retries are bounded: a server that always answers 429 ends the sample failed, saying so, after 1 + 4 attempts per request", async () => {
    const s = await standin(rateLimited(plumbingCeo(), { limited: () => true, retryAfterSeconds: 0 }));
    const result = await runProfile({
      profile: "semantic",
      samples: 1,
      only: ONE,
      concurrency: 1,
      env: NO_KEYS,
      connector: "openai-compatible",
      baseUrl: s.openaiBaseUrl,
      model: MODEL,
    });
    const [t] = all(result);
    expect(t!.terminal).toBe("failed");
    expect(t!.errors.join(" ")).toMatch(/429/);
    expect(result.rateLimit).toMatchObject({ requests: 1, attempts: 5, retries: 4, gaveUp: 1 });
    expect(s.modelCalls()).toHaveLength(5);
  });
});

describe("readiness of a live connector is checked first, naming what is missing", () => {
  it("openai-compatible, anthropic, openai, claude-code, codex", async () => {
    const run = (connector: string, extra: Record<string, string> = {}) =>
      runProfile({ profile: "semantic", samples: 1, only: ONE, env: NO_KEYS, connector, ...extra });
    await expect(run("openai-compatible")).rejects.toThrow(
      /--connector openai-compatible needs --base-url URL .* and --model ID/,
    );
    await expect(run("anthropic")).rejects.toThrow(/anthropic connector is not ready: .*ANTHROPIC_API_KEY/);
    await expect(run("openai")).rejects.toThrow(/openai connector is not ready: .*OPENAI_API_KEY/);
    if (REAL_CLAUDE_CODE)
      await expect(run("claude-code")).rejects.toThrow(
        /claude-code connector is not ready: .*pass --base-url URL \(an Anthropic Messages server; ANTHROPIC_BASE_URL works too/,
      );
    if (REAL_CODEX)
      await expect(run("codex")).rejects.toThrow(
        /codex connector is not ready: .*--base-url URL .*OPENAI_API_KEY/,
      );
    await expect(run("offline", { baseUrl: "http://127.0.0.1:9/v1" })).rejects.toThrow(
      /--base-url does not apply to --connector offline/,
    );
  });
});

describe("the harnesses' own binaries, through the gateway, against a stand-in", () => {
  it.skipIf(!REAL_CLAUDE_CODE)(
    "claude-code: a live sample with its calls priced and capped like any other",
    async () => {
      const s = await standin();
      const home = join(dir, "claude-home");
      await mkdir(home, { recursive: true });
      const result = await runProfile({
        profile: "semantic",
        samples: 1,
        only: ONE,
        connector: "claude-code",
        baseUrl: s.anthropicBaseUrl,
        env: claudeCodeTestEnv(home, s.anthropicBaseUrl),
      });
      const [t] = all(result);
      expect(t).toMatchObject({
        source: "live",
        terminal: "done",
        ceoRoute: "ceo-claude-code/claude-sonnet-4-5-20250929",
      });
      expect(t!.hires.length).toBeGreaterThanOrEqual(3);
      expect(t!.hires.every((h) => h.via === "tool")).toBe(true);
      expect(t!.cost!.calls.length).toBe(s.modelCalls().length);
      expect(t!.cost!.usd).toBeGreaterThan(0);
      expect(result.rateLimit!.requests).toBeGreaterThanOrEqual(s.modelCalls().length);
    },
  );

  it.skipIf(!REAL_CODEX)("codex: a live sample through `cadre mcp` on the sample's own store", async () => {
    const s = await standin();
    const result = await runProfile({
      profile: "semantic",
      samples: 1,
      only: ONE,
      connector: "codex",
      baseUrl: s.openaiBaseUrl,
      env: codexTestEnv(join(dir, "codex-home")),
      cadreCommand: [process.execPath, CLI],
    });
    const [t] = all(result);
    expect(t).toMatchObject({ source: "live", terminal: "done", ceoRoute: "ceo-codex/gpt-5-2025-08-07" });
    expect(t!.hires.length).toBeGreaterThanOrEqual(3);
    expect(t!.cost!.calls.length).toBeGreaterThan(0);
    expect(result.rateLimit!.requests).toBe(s.requests.length);
  });
});
