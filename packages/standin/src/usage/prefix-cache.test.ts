// The simulated prompt cache, on normalised requests: what counts as one conversation, how much of
// a request is read from the cache, and where Anthropic's breakpoints cap it.
import { describe, expect, it } from "vitest";
import type { RequestMessage, StandinRequest, Wire } from "../types.js";
import { PrefixCache } from "./prefix-cache.js";
import { countRequestTokens, countText } from "./tokens.js";

function request(
  wire: Wire,
  messages: RequestMessage[],
  system = "You are the CEO.",
  model = "m1",
): StandinRequest {
  return {
    wire,
    path: "/",
    model,
    system,
    systemBlocks: [{ text: system }],
    messages,
    tools: [{ name: "hire_agent", description: "Hire", inputSchema: { type: "object" }, deferred: false }],
    maxTokens: 100,
    stream: false,
    body: {},
    headers: {},
  };
}
const user = (text: string, cacheControl = false): RequestMessage => ({
  role: "user",
  content: [{ type: "text", text, ...(cacheControl ? { cacheControl } : {}) }],
});
const measured = (cache: PrefixCache, r: StandinRequest) => {
  const m = cache.measure(r);
  m.record();
  return m;
};

describe("PrefixCache", () => {
  it("OpenAI: a request extending the previous one reads all of it; the first reads nothing", () => {
    const cache = new PrefixCache();
    const one = request("openai-chat", [user("Build the team.")]);
    const two = request("openai-chat", [user("Build the team."), user("Go on.")]);
    expect(measured(cache, one)).toMatchObject({
      total: countRequestTokens(one),
      cacheRead: 0,
      cacheWrite: 0,
    });
    const m = measured(cache, two);
    expect(m).toMatchObject({
      total: countRequestTokens(two),
      cacheRead: countRequestTokens(one),
      cacheWrite: 0,
    });
    expect(m.uncached).toBe(countRequestTokens(two) - countRequestTokens(one));
  });

  it("OpenAI: a diverging message reads only the common prefix", () => {
    const cache = new PrefixCache();
    measured(cache, request("openai-responses", [user("Build the team now.")]));
    const m = measured(cache, request("openai-responses", [user("Build the team later.")]));
    expect(m.cacheRead).toBeGreaterThan(0);
    expect(m.cacheRead).toBeLessThan(m.total);
  });

  it("another system text, model or wire is another conversation", () => {
    const cache = new PrefixCache();
    measured(cache, request("openai-chat", [user("Hi")]));
    expect(measured(cache, request("openai-chat", [user("Hi")], "You are the CTO.")).cacheRead).toBe(0);
    expect(measured(cache, request("openai-chat", [user("Hi")], "You are the CEO.", "m2")).cacheRead).toBe(0);
    expect(measured(cache, request("openai-responses", [user("Hi")])).cacheRead).toBe(0);
    expect(measured(cache, request("openai-chat", [user("Hi")])).cacheRead).toBeGreaterThan(0);
  });

  it("a request refused before recording leaves the conversation's cache as it was", () => {
    const cache = new PrefixCache();
    const one = request("openai-chat", [user("Hi")]);
    measured(cache, one);
    cache.measure(request("openai-chat", [user("Something else entirely")]));
    expect(measured(cache, one).cacheRead).toBe(countRequestTokens(one));
  });

  it("Anthropic: writes up to the last breakpoint, reads at most what the previous request wrote", () => {
    const cache = new PrefixCache();
    const one = request("anthropic", [user("Build the team.", true), user("tail")]);
    const m1 = measured(cache, one);
    const tail = countText("user: tail");
    expect(m1).toMatchObject({ cacheRead: 0, cacheWrite: m1.total - tail, uncached: tail });
    const two = request("anthropic", [user("Build the team."), user("tail"), user("more", true)]);
    const m2 = measured(cache, two);
    expect(m2.cacheRead).toBe(m1.total - tail);
    expect(m2.cacheWrite).toBe(m2.total - m2.cacheRead);
    expect(m2.uncached).toBe(0);
  });

  it("Anthropic: no breakpoint, no caching", () => {
    const cache = new PrefixCache();
    const r = request("anthropic", [user("Hi")]);
    measured(cache, r);
    expect(measured(cache, r)).toMatchObject({
      cacheRead: 0,
      cacheWrite: 0,
      uncached: countRequestTokens(r),
    });
  });
});
