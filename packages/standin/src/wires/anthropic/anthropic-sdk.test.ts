// The oracle for the Anthropic wire: the official SDK (@anthropic-ai/sdk) against the stand-in.
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { echo, reply, scripted, startStandin, type StandinServer } from "../../index.js";
import { countRequestTokens, countText } from "../../usage/tokens.js";

let server: StandinServer;
afterEach(() => server?.close());

const client = (options: ConstructorParameters<typeof Anthropic>[0] = {}) =>
  new Anthropic({ apiKey: "sk-ant-standin", baseURL: server.anthropicBaseUrl, ...options });
const MODEL = "claude-standin-1";
const HIRE = {
  name: "hire_agent",
  description: "Hire a new agent.",
  input_schema: { type: "object" as const, properties: { name: { type: "string" } }, required: ["name"] },
};
const ARGS = {
  name: "CTO",
  role: "Chief Technology Officer",
  connectorId: "offline",
  model: "offline-scripted-1",
};
const ask = (content: string) => ({
  model: MODEL,
  max_tokens: 1024,
  messages: [{ role: "user" as const, content }],
});

describe("Anthropic Messages, through @anthropic-ai/sdk", () => {
  it("streams text then a tool call whose input arrives in several input_json_delta parts", async () => {
    server = await startStandin({ policy: scripted([reply.toolCall("hire_agent", ARGS, "Hiring a CTO.")]) });
    const stream = client().messages.stream({ ...ask("Build the team."), tools: [HIRE] });
    const parts: string[] = [];
    stream.on("inputJson", (delta) => parts.push(delta));
    const message = await stream.finalMessage();
    expect(message.id).toMatch(/^standin_msg_/);
    expect(message.model).toBe(MODEL);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toMatchObject([
      { type: "text", text: "Hiring a CTO." },
      { type: "tool_use", id: expect.stringMatching(/^standin_toolu_/), name: "hire_agent", input: ARGS },
    ]);
    expect(parts.length).toBeGreaterThan(1);
    const { request } = server.modelCalls()[0]!;
    expect(request.tools.map((t) => t.name)).toEqual(["hire_agent"]);
    expect(message.usage).toMatchObject({
      input_tokens: countRequestTokens(request),
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      output_tokens: countText("Hiring a CTO.") + countText(`hire_agent${JSON.stringify(ARGS)}`),
    });
  });

  it("answers without streaming, marked as a stand-in in its headers", async () => {
    server = await startStandin({ policy: echo });
    const { data, response } = await client().messages.create(ask("ping")).withResponse();
    expect(data.content).toEqual([{ type: "text", text: "echo (stand-in): ping" }]);
    expect(data.stop_reason).toBe("end_turn");
    expect(response.headers.get("x-cadre-standin")).toBe("1");
    expect(response.headers.get("request-id")).toMatch(/^standin_req_/);
  });

  it("names the served model the reply says, and takes its usage override field by field", async () => {
    server = await startStandin({
      policy: scripted([{ ...reply.text("ok"), model: "claude-served-2", usage: { output: 99 } }]),
    });
    const message = await client().messages.stream(ask("hi")).finalMessage();
    expect(message.model).toBe("claude-served-2");
    expect(message.usage).toMatchObject({
      output_tokens: 99,
      input_tokens: countRequestTokens(server.modelCalls()[0]!.request),
    });
  });

  it("streams a thinking block with its signature before the text", async () => {
    server = await startStandin({
      policy: scripted([
        reply.blocks({ type: "thinking", thinking: "Three leads first." }, { type: "text", text: "Done." }),
      ]),
    });
    const message = await client().messages.stream(ask("Plan.")).finalMessage();
    expect(message.content).toMatchObject([
      { type: "thinking", thinking: "Three leads first.", signature: expect.stringMatching(/^standin_sig_/) },
      { type: "text", text: "Done." },
    ]);
  });

  it("reports the prefix cache: creation up to the last breakpoint, then reads of the common prefix", async () => {
    server = await startStandin({ policy: echo });
    const system = [
      {
        type: "text" as const,
        text: "You are the CEO. ".repeat(40),
        cache_control: { type: "ephemeral" as const },
      },
    ];
    const marked = (text: string) => ({
      type: "text" as const,
      text,
      cache_control: { type: "ephemeral" as const },
    });
    const first = await client().messages.create({
      model: MODEL,
      max_tokens: 256,
      system,
      messages: [{ role: "user", content: [marked("Build the team.")] }],
    });
    const second = await client().messages.create({
      model: MODEL,
      max_tokens: 256,
      system,
      messages: [
        { role: "user", content: "Build the team." },
        { role: "assistant", content: "echo (stand-in): Build the team." },
        { role: "user", content: [marked("Go on.")] },
      ],
    });
    const [one, two] = server.modelCalls().map((c) => countRequestTokens(c.request));
    expect(first.usage).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: one,
      cache_read_input_tokens: 0,
    });
    expect(second.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: one,
      cache_creation_input_tokens: two! - one!,
    });
    // No cache_control anywhere: Anthropic caches nothing.
    const plain = await client().messages.create(ask("Build the team."));
    expect(plain.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(plain.usage.input_tokens).toBe(countRequestTokens(server.modelCalls()[2]!.request));
  });

  it("cuts a reply at max_tokens as the API does", async () => {
    server = await startStandin({
      policy: scripted([reply.text("one two three four five six seven eight nine ten")]),
    });
    const message = await client().messages.create({ ...ask("Count."), max_tokens: 4 });
    expect(message.stop_reason).toBe("max_tokens");
    expect(message.usage.output_tokens).toBe(4);
    expect(message.content).toEqual([{ type: "text", text: "one two three four" }]);
  });

  it("counts tokens on /v1/messages/count_tokens the same way as a model call", async () => {
    server = await startStandin({ policy: echo });
    const counted = await client().messages.countTokens({
      model: MODEL,
      system: "Be brief.",
      tools: [HIRE],
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(counted.input_tokens).toBe(countRequestTokens(server.requests[0]!.request!));
    expect(server.modelCalls()).toHaveLength(0);
  });

  it("lists the served models and refuses others with not_found_error", async () => {
    server = await startStandin({ policy: echo, models: [MODEL] });
    const page = await client().models.list();
    expect(page.data.map((m) => m.id)).toEqual([MODEL]);
    const error = await client()
      .messages.create({ ...ask("hi"), model: "claude-unknown-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe("Anthropic errors and faults, through @anthropic-ai/sdk", () => {
  it("retries a 429 after its retry-after, then succeeds", async () => {
    server = await startStandin({
      policy: scripted([reply.error("rate_limit", { retryAfterSeconds: 1 }), "recovered"]),
    });
    const message = await client().messages.create(ask("hi"));
    expect(message.content).toEqual([{ type: "text", text: "recovered" }]);
    const [first, retry] = server.requests;
    expect(first!.status).toBe(429);
    expect(retry!.headers["x-stainless-retry-count"]).toBe("1");
    // The SDK's own backoff for a first retry is at most 0.5 s: waiting 1 s is retry-after at work.
    expect(Date.parse(retry!.at) - Date.parse(first!.at)).toBeGreaterThanOrEqual(1000);
  });

  it("surfaces a 429 with rate_limit_error and retry-after when retries are off", async () => {
    server = await startStandin({ policy: scripted([reply.error("rate_limit", { retryAfterSeconds: 7 })]) });
    const error = await client({ maxRetries: 0 })
      .messages.create(ask("hi"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const e = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.headers.get("retry-after")).toBe("7");
    expect(e.error).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  });

  it("refuses a prompt over the context window with the real overflow wording, not retried", async () => {
    server = await startStandin({ policy: echo, contextWindow: 20 });
    const error = await client()
      .messages.create(ask("word ".repeat(50)))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/prompt is too long: \d+ tokens > 20 maximum/);
    expect(server.requests).toHaveLength(1);
  });

  it("retries 529 overloaded_error and gives up with it when retries run out", async () => {
    const overloaded = reply.error("overloaded", { retryAfterSeconds: 0.01 });
    server = await startStandin({ policy: scripted([overloaded, overloaded, "ok", overloaded]) });
    expect((await client().messages.create(ask("hi"))).content).toEqual([{ type: "text", text: "ok" }]);
    const error = await client({ maxRetries: 0 })
      .messages.create(ask("hi"))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 529, error: { error: { type: "overloaded_error" } } });
    expect(server.requests.map((r) => r.status)).toEqual([529, 529, 200, 529]);
  });

  it("answers 500 api_error", async () => {
    server = await startStandin({ policy: scripted([reply.error("server")]) });
    const error = await client({ maxRetries: 0 })
      .messages.create(ask("hi"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error).toMatchObject({ error: { error: { type: "api_error" } } });
  });

  it("a stream cut by a connection reset fails in the SDK after the text that arrived", async () => {
    const long = reply.text("one two three four five six seven eight nine");
    server = await startStandin({ policy: scripted([reply.cut(long, 4, "reset")]) });
    const stream = client({ maxRetries: 0 }).messages.stream(ask("Count."));
    const seen: string[] = [];
    stream.on("text", (t) => seen.push(t));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(seen.join("")).toBe("one two three ");
  });

  it("an in-stream error event surfaces as the SDK's APIError with the vendor's type", async () => {
    server = await startStandin({ policy: scripted([reply.cut(reply.text("a b c d e f"), 3, "error")]) });
    const error = await client()
      .messages.stream(ask("hi"))
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ error: { type: "error", error: { type: "overloaded_error" } } });
  });

  it("a hung request ends in the SDK's timeout", async () => {
    server = await startStandin({ policy: scripted([reply.hang()]) });
    const error = await client({ timeout: 300, maxRetries: 0 })
      .messages.create(ask("hi"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(server.requests[0]!.answered).toEqual({ kind: "hang" });
  });
});
