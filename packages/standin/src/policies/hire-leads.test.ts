// hireLeads driven the way a harness drives a model: a loop that runs each tool call it gets and
// sends the result back, over the official SDKs, until the model stops calling tools.
import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { hireLeads, startStandin, type StandinServer } from "../index.js";

let server: StandinServer;
afterEach(() => server?.close());

const PROMPT = [
  "You are the CEO of the company described below.",
  "## Company",
  "Name: Northwind Robotics",
  "",
  "## Available connectors",
  "- ceo-anthropic: Anthropic Messages API. Not ready (ANTHROPIC_API_KEY is not set). Models: claude-sonnet-4-5-20250929",
  "- offline: Offline scripted model (deterministic, no network). Ready. Models: offline-scripted-1, offline-scripted-2",
].join("\n");
const CUE = "You are the CEO. Your team is currently empty.";
const schema = { type: "object" as const, properties: {} };

type Calls = Array<{ tool: string; input: Record<string, unknown> }>;
/** The company side: records each call; hires named in `refuse` get an error result. */
function tools(calls: Calls, refuse: string[] = []) {
  return (tool: string, input: Record<string, unknown>) => {
    calls.push({ tool, input });
    const refused = refuse.includes(String(input["name"]));
    const text = refused
      ? "hire_agent was not run, nothing was written. `name` is taken."
      : `{"ok":${calls.length}}`;
    return { text, isError: refused };
  };
}

async function anthropicLoop(names: string[], run: ReturnType<typeof tools>) {
  const client = new Anthropic({ apiKey: "k", baseURL: server.anthropicBaseUrl });
  const offered = names.map((name) => ({ name, description: `${name} tool`, input_schema: schema }));
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: CUE }];
  for (let i = 0; i < 10; i++) {
    const message = await client.messages
      .stream({ model: "claude-standin-1", max_tokens: 4096, system: PROMPT, tools: offered, messages })
      .finalMessage();
    messages.push({ role: "assistant", content: message.content });
    const uses = message.content.filter((b) => b.type === "tool_use");
    if (message.stop_reason !== "tool_use") return message.content.find((b) => b.type === "text")?.text ?? "";
    messages.push({
      role: "user",
      content: uses.map((u) => {
        const r = run(u.name, u.input as Record<string, unknown>);
        return { type: "tool_result" as const, tool_use_id: u.id, content: r.text, is_error: r.isError };
      }),
    });
  }
  throw new Error("the policy never stopped");
}

describe("hireLeads", () => {
  it("over Anthropic with MCP names: three leads hired with valid arguments, then the strategy, then a text", async () => {
    server = await startStandin({ policy: hireLeads() });
    const calls: Calls = [];
    const final = await anthropicLoop(["mcp__cadre__hire_agent", "mcp__cadre__file_approval"], tools(calls));
    expect(calls.map((c) => [c.tool, c.input["name"] ?? c.input["type"]])).toEqual([
      ["mcp__cadre__hire_agent", "CTO"],
      ["mcp__cadre__hire_agent", "Head of Product"],
      ["mcp__cadre__hire_agent", "Head of Sales"],
      ["mcp__cadre__file_approval", "approve_ceo_strategy"],
    ]);
    for (const c of calls.slice(0, 3)) {
      expect(c.input).toMatchObject({ connectorId: "offline", model: "offline-scripted-1" });
      expect(Object.keys(c.input).sort()).toEqual([
        "connectorId",
        "department",
        "description",
        "model",
        "name",
        "role",
      ]);
    }
    expect(calls.slice(0, 3).map((c) => c.input["department"])).toEqual(["engineering", "product", "sales"]);
    expect(calls[3]!.input["title"]).toBe("Strategy for Northwind Robotics: 3 leads");
    expect(calls[3]!.input["payload"]).toMatch(
      /^# Strategy for Northwind Robotics\n[\s\S]*- CTO \(engineering\)/,
    );
    expect(final).toMatch(
      /^Hired 3 of 3 leads: CTO, Head of Product, Head of Sales\.\nStrategy filed: \{"ok":4\}/,
    );
  });

  it("reads refusals: a refused hire is reported and left out of the plan", async () => {
    server = await startStandin({ policy: hireLeads({ connectorId: "offline" }) });
    const calls: Calls = [];
    const final = await anthropicLoop(
      ["cadre__hire_agent", "cadre__file_approval"],
      tools(calls, ["Head of Product"]),
    );
    expect(calls[0]!.input).toMatchObject({ connectorId: "offline", model: "offline-scripted-1" });
    expect(calls[3]!.input["payload"]).not.toContain("Head of Product");
    expect(final).toContain("Hired 2 of 3 leads: CTO, Head of Sales.");
    expect(final).toContain("Refused: Head of Product: hire_agent was not run");
  });

  it("over Responses with a Codex namespace: the calls carry the namespace", async () => {
    server = await startStandin({
      policy: hireLeads({ connectorId: "local", model: "qwen2.5-14b-instruct" }),
    });
    const client = new OpenAI({ apiKey: "k", baseURL: server.openaiBaseUrl });
    const namespace = {
      type: "namespace",
      name: "mcp__cadre",
      description: "Tools in the mcp__cadre namespace.",
      tools: ["hire_agent", "file_approval"].map((name) => ({
        type: "function",
        name,
        description: name,
        parameters: schema,
      })),
    };
    const input: unknown[] = [
      { type: "message", role: "developer", content: PROMPT },
      { type: "message", role: "user", content: CUE },
    ];
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await client.responses.create({
        model: "gpt-standin-1",
        input: input as never,
        tools: [namespace] as never,
      });
      const calls = response.output.filter((o) => o.type === "function_call");
      if (calls.length === 0) break;
      for (const c of calls) {
        seen.push(
          `${(c as { namespace?: string }).namespace}/${c.name}:${JSON.parse(c.arguments).name ?? "-"}`,
        );
        input.push(c, {
          type: "function_call_output",
          call_id: c.call_id,
          output: [{ type: "input_text", text: "ok" }],
        });
      }
    }
    expect(seen).toEqual([
      "mcp__cadre/hire_agent:CTO",
      "mcp__cadre/hire_agent:Head of Product",
      "mcp__cadre/hire_agent:Head of Sales",
      "mcp__cadre/file_approval:-",
    ]);
  });

  it("offered no hire tool, or only a deferred one, it says so and calls nothing", async () => {
    server = await startStandin({ policy: hireLeads() });
    const client = new Anthropic({ apiKey: "k", baseURL: server.anthropicBaseUrl });
    const ask = (tools: Anthropic.ToolUnion[]) =>
      client.messages.create({
        model: "claude-standin-1",
        max_tokens: 256,
        system: PROMPT,
        tools,
        messages: [{ role: "user", content: CUE }],
      });
    const bash = { name: "Bash", description: "Run a shell command", input_schema: schema };
    const none = await ask([bash]);
    expect(none.stop_reason).toBe("end_turn");
    expect(none.content).toEqual([
      {
        type: "text",
        text: "I cannot hire: no hire_agent tool was offered to me. Tools I can call: Bash. (stand-in)",
      },
    ]);
    const deferred = await ask([
      bash,
      {
        name: "mcp__cadre__hire_agent",
        description: "Hire",
        input_schema: schema,
        defer_loading: true,
      } as Anthropic.Tool,
    ]);
    expect(deferred.content[0]).toMatchObject({
      text: expect.stringMatching(/^I cannot hire: mcp__cadre__hire_agent is only listed as deferred/),
    });
    expect(server.toolsOffered()).toEqual(["Bash"]);
  });

  it("with no ready connector in its instructions it says so and calls nothing", async () => {
    server = await startStandin({ policy: hireLeads() });
    const client = new Anthropic({ apiKey: "k", baseURL: server.anthropicBaseUrl });
    const message = await client.messages.create({
      model: "claude-standin-1",
      max_tokens: 256,
      system: "You are the CEO (no connector list).",
      tools: [{ name: "hire_agent", description: "Hire", input_schema: schema }],
      messages: [{ role: "user", content: CUE }],
    });
    expect(message.content).toEqual([
      {
        type: "text",
        text: expect.stringMatching(/^I cannot hire: my instructions list no ready connector/),
      },
    ]);
  });

  it("answers a Claude Code compaction with a <summary>, and after it does not hire the same lead again", async () => {
    server = await startStandin({ policy: hireLeads() });
    const client = new Anthropic({ apiKey: "k", baseURL: server.anthropicBaseUrl });
    const tools = [{ name: "mcp__cadre__hire_agent", description: "Hire", input_schema: schema }];
    const base = { model: "claude-standin-1", max_tokens: 4096, system: PROMPT, tools };
    const history: Anthropic.MessageParam[] = [
      { role: "user", content: CUE },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "mcp__cadre__hire_agent", input: { name: "CTO" } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: '{"agentId":"agt_1"}' }] },
    ];
    const compact = await client.messages.create({
      ...base,
      messages: [
        ...history,
        {
          role: "user",
          content:
            "CRITICAL: Respond with TEXT ONLY. Your task is to create a detailed summary of the conversation so far.",
        },
      ],
    });
    const summary = compact.content[0]!.type === "text" ? compact.content[0]!.text : "";
    expect(summary).toMatch(
      /<summary>[\s\S]*Stand-in actions so far: mcp__cadre__hire_agent\(CTO\) ok[\s\S]*<\/summary>/,
    );
    const next = await client.messages.create({
      ...base,
      messages: [
        {
          role: "user",
          content: `This session is being continued from a previous conversation.\n${summary}`,
        },
      ],
    });
    expect(next.content.find((b) => b.type === "tool_use")).toMatchObject({
      input: { name: "Head of Product" },
    });
  });

  it("answers a Codex compaction request (request_kind in its turn metadata) with a summary, calling nothing", async () => {
    server = await startStandin({ policy: hireLeads() });
    const client = new OpenAI({ apiKey: "k", baseURL: server.openaiBaseUrl });
    const response = await client.responses.create(
      { model: "gpt-standin-1", instructions: PROMPT, input: "CONTEXT CHECKPOINT COMPACTION", tools: [] },
      { headers: { "x-codex-turn-metadata": JSON.stringify({ request_kind: "compaction" }) } },
    );
    expect(response.output.map((o) => o.type)).toEqual(["message"]);
    expect(response.output_text).toMatch(/<summary>[\s\S]*Stand-in actions so far: none/);
  });

  it("answers the request recorded from the real Claude Code 2.1.332 with the next hire as mcp__cadre__hire_agent", async () => {
    const recorded = JSON.parse(
      readFileSync(
        new URL("../wires/anthropic/__fixtures__/claude-code-2.1.332.request.json", import.meta.url),
        "utf8",
      ),
    );
    server = await startStandin({
      policy: hireLeads({ connectorId: "offline", model: "offline-scripted-1" }),
    });
    const res = await fetch(`${server.url}${recorded.url}`, {
      method: "POST",
      headers: recorded.headers,
      body: JSON.stringify(recorded.body),
    });
    const events = (await res.text()).split("\n").filter((l) => l.startsWith("event: "));
    expect(events[0]).toBe("event: message_start");
    expect(events.at(-1)).toBe("event: message_stop");
    expect(server.toolsOffered()).toEqual(["mcp__cadre__file_approval", "mcp__cadre__hire_agent"]);
    expect(server.requests[0]!.answered?.blocks).toEqual([
      { type: "text" },
      { type: "tool_call", name: "mcp__cadre__hire_agent" },
    ]);
  });
});
