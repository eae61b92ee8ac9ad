// Smoke test through @mariozechner/pi-ai's streamSimple, the client Cadre's Pi-routed connectors
// use: the three routes packages/core/src/harness/pi/pi-model.ts builds (anthropic and openai from
// pi-ai's catalogue with the base URL swapped, openai-compatible as a custom openai-completions
// model) reach the stand-in and get the tool call, the text and the usage back.
import { type Context, getModels, type Model, streamSimple } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { hireLeads, startStandin, type StandinServer } from "./index.js";
import { countRequestTokens } from "./usage/tokens.js";

let server: StandinServer;
afterEach(() => server?.close());

const PROMPT = [
  "## Company",
  "Name: Northwind Robotics",
  "",
  "## Available connectors",
  "- offline: Offline scripted model (deterministic, no network). Ready. Models: offline-scripted-1",
].join("\n");

const context: Context = {
  systemPrompt: PROMPT,
  messages: [{ role: "user", content: "You are the CEO. Your team is currently empty.", timestamp: 0 }],
  tools: [
    {
      name: "hire_agent",
      description: "Hire a new agent into your company.",
      parameters: { type: "object", properties: { name: { type: "string" } } } as never,
    },
  ],
};

function routes(): Array<[string, Model<any>]> {
  const anthropic = getModels("anthropic").find((m) => m.id === "claude-sonnet-4-5")!;
  const openai = getModels("openai").find((m) => m.id === "gpt-5-mini")!;
  const compatible: Model<any> = {
    id: "qwen2.5-14b-instruct",
    name: "qwen2.5-14b-instruct",
    api: "openai-completions",
    provider: "openai-compatible",
    baseUrl: server.openaiBaseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 32768,
    maxTokens: 4096,
  };
  return [
    ["anthropic", { ...anthropic, baseUrl: server.anthropicBaseUrl }],
    ["openai", { ...openai, baseUrl: server.openaiBaseUrl }],
    ["openai-compatible", compatible],
  ];
}

describe("pi-ai streamSimple against the stand-in", () => {
  it("each route gets the hire call with its arguments and the counted usage", async () => {
    server = await startStandin({ policy: hireLeads() });
    const wires = [];
    for (const [route, model] of routes()) {
      const message = await streamSimple(model, context, { apiKey: "sk-standin" }).result();
      expect(message.stopReason, `${route}: ${message.errorMessage}`).toBe("toolUse");
      const call = message.content.find((b) => b.type === "toolCall");
      expect(call, route).toMatchObject({
        name: "hire_agent",
        arguments: {
          name: "CTO",
          connectorId: "offline",
          model: "offline-scripted-1",
          department: "engineering",
        },
      });
      expect(message.content.find((b) => b.type === "text")).toMatchObject({
        text: "Hiring a Chief Technology Officer (engineering).",
      });
      const { request } = server.modelCalls().at(-1)!;
      wires.push(request.wire);
      const counted = countRequestTokens(request);
      expect(message.usage.input + message.usage.cacheRead + message.usage.cacheWrite, route).toBe(counted);
      expect(message.usage.output, route).toBeGreaterThan(0);
    }
    expect(wires).toEqual(["anthropic", "openai-responses", "openai-chat"]);
  });
});
