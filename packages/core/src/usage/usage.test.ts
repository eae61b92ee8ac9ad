import { describe, expect, it } from "vitest";
import { resolveModel } from "../models/registry.js";
import { cacheHitRate, combineSummaries, summariseUsage, usageCost } from "./accounting.js";
import { firstDifferingByte, simulatePrefixCache, theoreticalMaxHitRate } from "./cache-metrics.js";
import {
  anthropicUsage,
  cumulativeUsageTracker,
  incrementalUsage,
  openaiUsage,
  piUsage,
} from "./normalise.js";

describe("usage normalisation from documented vendor payloads", () => {
  it("Anthropic Messages: cache tokens are reported beside input_tokens, so input stays as reported", () => {
    // message_start.message.usage, as in Anthropic's prompt-caching documentation
    const usage = {
      input_tokens: 21,
      cache_creation_input_tokens: 188086,
      cache_read_input_tokens: 0,
      output_tokens: 393,
    };
    expect(anthropicUsage(usage)).toEqual({ input: 21, output: 393, cacheRead: 0, cacheWrite: 188086 });
    expect(anthropicUsage({ input_tokens: 3, cache_read_input_tokens: 10240, output_tokens: 42 })).toEqual({
      input: 3,
      output: 42,
      cacheRead: 10240,
      cacheWrite: 0,
    });
  });

  it("OpenAI Chat Completions: cached tokens are inside prompt_tokens, so uncached input = prompt − cached", () => {
    // usage of a chat.completion, as in OpenAI's prompt-caching guide
    const usage = {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
    };
    expect(
      openaiUsage(usage.prompt_tokens, usage.prompt_tokens_details.cached_tokens, usage.completion_tokens),
    ).toEqual({ input: 86, output: 300, cacheRead: 1920, cacheWrite: 0 });
  });

  it("OpenAI Responses: input_tokens include input_tokens_details.cached_tokens", () => {
    const usage = {
      input_tokens: 5000,
      input_tokens_details: { cached_tokens: 4864 },
      output_tokens: 120,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: 5120,
    };
    expect(
      openaiUsage(usage.input_tokens, usage.input_tokens_details.cached_tokens, usage.output_tokens),
    ).toEqual({ input: 136, output: 120, cacheRead: 4864, cacheWrite: 0 });
    expect(openaiUsage(100, undefined, 5)).toEqual({ input: 100, output: 5, cacheRead: 0, cacheWrite: 0 });
  });

  it("pi-ai's normalised usage keeps the four counters only", () => {
    expect(
      piUsage({
        input: 1,
        output: 2,
        cacheRead: 3,
        cacheWrite: 4,
        totalTokens: 10,
        cost: { total: 1 },
      } as never),
    ).toEqual({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4 });
  });

  it("cumulative readings (a Codex thread's totals) become per-call increments; a reset starts over", () => {
    const next = cumulativeUsageTracker();
    const readings = [
      { input: 1000, output: 50, cacheRead: 0, cacheWrite: 0 },
      { input: 1200, output: 90, cacheRead: 900, cacheWrite: 0 },
      { input: 1500, output: 100, cacheRead: 1900, cacheWrite: 0 },
      { input: 40, output: 5, cacheRead: 0, cacheWrite: 0 }, // a new thread
    ];
    expect(readings.map(next)).toEqual([
      { input: 1000, output: 50, cacheRead: 0, cacheWrite: 0 },
      { input: 200, output: 40, cacheRead: 900, cacheWrite: 0 },
      { input: 300, output: 10, cacheRead: 1000, cacheWrite: 0 },
      { input: 40, output: 5, cacheRead: 0, cacheWrite: 0 },
    ]);
    expect(incrementalUsage(undefined, readings[0]!)).toEqual(readings[0]);
  });
});

describe("usage accounting", () => {
  it("hit rate = cacheRead / (input + cacheRead + cacheWrite); output does not count", () => {
    expect(cacheHitRate({ input: 100, output: 5000, cacheRead: 800, cacheWrite: 100 })).toBe(0.8);
    expect(cacheHitRate({ input: 0, output: 7, cacheRead: 0, cacheWrite: 0 })).toBe(0);
  });

  it("cost uses each counter's price from the registry (USD per million tokens)", () => {
    const sonnet = resolveModel("claude-sonnet-4-5-20250929");
    expect(sonnet.price).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    const u = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 };
    expect(usageCost(u, sonnet.price!)).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
    expect(summariseUsage(u, sonnet)).toMatchObject({ total: 3_500_000, hitRate: 2_000_000 / 3_400_000 });
    expect(summariseUsage(u).cost).toBeNull();
  });

  it("combined summaries add tokens and costs; an unknown cost makes the total unknown", () => {
    const a = summariseUsage(
      { input: 10, output: 1, cacheRead: 30, cacheWrite: 0 },
      { price: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } },
    );
    const b = summariseUsage(
      { input: 10, output: 1, cacheRead: 50, cacheWrite: 0 },
      { price: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } },
    );
    expect(combineSummaries([a, b])).toEqual({
      input: 20,
      output: 2,
      cacheRead: 80,
      cacheWrite: 0,
      total: 102,
      cost: 102 / 1e6,
      hitRate: 0.8,
    });
    expect(
      combineSummaries([a, summariseUsage({ input: 1, output: 0, cacheRead: 0, cacheWrite: 0 })]).cost,
    ).toBeNull();
  });
});

describe("cache metrics", () => {
  it("first differing byte counts UTF-8 bytes; null when identical", () => {
    expect(firstDifferingByte("abc", "abc")).toBeNull();
    expect(firstDifferingByte("abc", "abcdef")).toBe(3);
    expect(firstDifferingByte("é€x", "é€y")).toBe(5);
  });

  it("the theoretical maximum equals the simulated rate when the prefix is stable, and exceeds it when the system part drifts", () => {
    const tools = "tools:[]";
    const stable = [
      [tools, "system:S", "user:hi"],
      [tools, "system:S", "user:hi", "assistant:ok", "user:more"],
      [tools, "system:S", "user:hi", "assistant:ok", "user:more", "assistant:done", "user:again"],
    ];
    const simulated = (requests: string[][]) => {
      let previous: string | undefined;
      let read = 0;
      let prompt = 0;
      for (const parts of requests) {
        const { usage, cacheable } = simulatePrefixCache(previous, parts);
        previous = cacheable;
        read += usage.cacheRead;
        prompt += usage.input + usage.cacheRead + usage.cacheWrite;
      }
      return read / prompt;
    };
    expect(theoreticalMaxHitRate(stable)).toBe(simulated(stable));
    const drifting = stable.map((parts, i) => [parts[0]!, `system:S at call ${i}`, ...parts.slice(2)]);
    expect(simulated(drifting)).toBeLessThan(theoreticalMaxHitRate(drifting));
  });
});
