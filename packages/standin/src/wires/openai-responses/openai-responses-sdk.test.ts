// The oracle for the Responses wire (what Codex speaks): the official `openai` SDK against the
// stand-in, and a request recorded from the real Codex 0.163.0 posted as it was sent.
import { readFileSync } from "node:fs";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { echo, hireLeads, reply, scripted, startStandin, type StandinServer } from "../../index.js";
import { countRequestTokens, countText } from "../../usage/tokens.js";

let server: StandinServer;
afterEach(() => server?.close());

const client = (options: ConstructorParameters<typeof OpenAI>[0] = {}) =>
  new OpenAI({ apiKey: "sk-standin", baseURL: server.openaiBaseUrl, ...options });
const MODEL = "gpt-standin-1";
const HIRE = { name: "CTO", role: "Chief Technology Officer" };
const ANSWER = reply.blocks(
  { type: "thinking", thinking: "Hire the CTO first." },
  { type: "text", text: "Hiring a CTO." },
  { type: "tool_call", name: "hire_agent", namespace: "mcp__cadre", input: HIRE },
);

describe("Responses, through the openai SDK", () => {
  it("streams reasoning, text and a namespaced function call, each event numbered, then usage", async () => {
    server = await startStandin({ policy: scripted([ANSWER, ANSWER]) });
    const events = [];
    const raw = await client().responses.create({ model: MODEL, input: "Build the team.", stream: true });
    for await (const event of raw) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(types.at(-1)).toBe("response.completed");
    for (const t of [
      "response.reasoning_summary_text.delta",
      "response.content_part.added",
      "response.output_text.done",
    ])
      expect(types).toContain(t);
    expect(types.filter((t) => t === "response.function_call_arguments.delta").length).toBeGreaterThan(1);
    expect(types.filter((t) => t === "response.output_item.done")).toHaveLength(3);

    const final = await client()
      .responses.stream({ model: MODEL, input: "Build the team.", include: ["reasoning.encrypted_content"] })
      .finalResponse();
    expect(final.id).toMatch(/^standin_resp_/);
    const [reasoning, message, call] = final.output;
    expect(reasoning).toMatchObject({ type: "reasoning", summary: [{ text: "Hire the CTO first." }] });
    expect(reasoning).toHaveProperty("encrypted_content");
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ text: "Hiring a CTO." }],
    });
    expect(call).toMatchObject({
      type: "function_call",
      name: "hire_agent",
      namespace: "mcp__cadre",
      status: "completed",
    });
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual(HIRE);
    const request = server.modelCalls()[1]!.request;
    const reasoningTokens = countText("Hire the CTO first.");
    expect(final.usage).toMatchObject({
      input_tokens: countRequestTokens(request),
      input_tokens_details: { cached_tokens: countRequestTokens(request) },
      output_tokens:
        reasoningTokens + countText("Hiring a CTO.") + countText(`hire_agent${JSON.stringify(HIRE)}`),
      output_tokens_details: { reasoning_tokens: reasoningTokens },
    });
  });

  it("answers without streaming: output_text, instructions as the system text", async () => {
    server = await startStandin({ policy: echo });
    const response = await client().responses.create({
      model: MODEL,
      instructions: "Be brief.",
      input: "ping",
    });
    expect(response.output_text).toBe("echo (stand-in): ping");
    expect(response.status).toBe("completed");
    expect(server.modelCalls()[0]!.request.system).toBe("Be brief.");
  });

  it("stops at max_output_tokens with an incomplete response", async () => {
    server = await startStandin({
      policy: scripted([reply.text("one two three four five six seven eight")]),
    });
    const response = await client().responses.create({ model: MODEL, input: "Count.", max_output_tokens: 3 });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response.usage?.output_tokens).toBe(3);
  });

  it("a mid-stream failure is a response.failed event with the vendor's code", async () => {
    const failing = {
      ...reply.text("a b c d e f"),
      cut: { afterEvents: 4, then: "error" as const, error: { kind: "server" as const } },
    };
    server = await startStandin({ policy: scripted([failing]) });
    const events = [];
    for await (const e of await client().responses.create({ model: MODEL, input: "hi", stream: true }))
      events.push(e);
    const last = events.at(-1)!;
    expect(last.type).toBe("response.failed");
    expect(last).toMatchObject({
      sequence_number: 4,
      response: { status: "failed", error: { code: "server_error" } },
    });
  });

  it("retries a 429 after its retry-after; refuses an over-long input with context_length_exceeded", async () => {
    server = await startStandin({
      policy: scripted([reply.error("rate_limit", { retryAfterSeconds: 1 }), "ok"]),
      contextWindow: 30,
    });
    expect((await client().responses.create({ model: MODEL, input: "hi" })).output_text).toBe("ok");
    const [first, retry] = server.requests;
    expect(Date.parse(retry!.at) - Date.parse(first!.at)).toBeGreaterThanOrEqual(1000);
    const error = await client()
      .responses.create({ model: MODEL, input: "word ".repeat(60) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: "context_length_exceeded", param: "input" });
  });
});

describe("a request recorded from the real Codex 0.163.0", () => {
  const recorded = JSON.parse(
    readFileSync(new URL("./__fixtures__/codex-0.163.0.request.json", import.meta.url), "utf8"),
  );

  it("is read with its namespaced MCP tools, developer text and function_call_output", async () => {
    server = await startStandin({ policy: echo });
    const res = await fetch(`${server.url}${recorded.url}`, {
      method: "POST",
      headers: recorded.headers,
      body: JSON.stringify(recorded.body),
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { request } = server.modelCalls()[0]!;
    expect(server.toolsOffered()).toEqual([
      "list_mcp_resources",
      "list_mcp_resource_templates",
      "read_mcp_resource",
      "mcp__cadre__file_approval",
      "mcp__cadre__hire_agent",
    ]);
    expect(request.system).toContain("You are the CEO (stand-in test).");
    const sent = recorded.body.input.find((i: { type: string }) => i.type === "function_call");
    const call = request.messages.flatMap((m) => m.content).find((b) => b.type === "tool_call");
    expect(call).toEqual({
      type: "tool_call",
      id: sent.call_id,
      name: "hire_agent",
      namespace: "mcp__cadre",
      input: JSON.parse(sent.arguments),
    });
    const result = request.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result");
    expect(result).toMatchObject({ toolCallId: (call as { id: string }).id });
    expect((await res.text()).split("\n")).toContain("event: response.completed");
  });

  it("gets the next hire as the namespaced function_call Codex executes", async () => {
    server = await startStandin({
      policy: hireLeads({ connectorId: "offline", model: "offline-scripted-1" }),
    });
    const body = { ...recorded.body, stream: false };
    const res = await fetch(`${server.openaiBaseUrl}/responses`, {
      method: "POST",
      headers: recorded.headers,
      body: JSON.stringify(body),
    });
    const response = (await res.json()) as { output: Array<Record<string, unknown>> };
    const call = response.output.find((i) => i["type"] === "function_call")!;
    expect(call).toMatchObject({ namespace: "mcp__cadre", name: "hire_agent", status: "completed" });
    expect(call["call_id"]).toMatch(/^standin_call_/);
    expect(JSON.parse(call["arguments"] as string)).toMatchObject({
      name: "CTO",
      connectorId: "offline",
      model: "offline-scripted-1",
    });
  });
});
