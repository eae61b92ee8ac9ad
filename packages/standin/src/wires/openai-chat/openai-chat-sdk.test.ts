// The oracle for the Chat Completions wire: the official `openai` SDK against the stand-in.
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { echo, reply, scripted, startStandin, type StandinServer } from "../../index.js";
import { countRequestTokens, countText } from "../../usage/tokens.js";

let server: StandinServer;
afterEach(() => server?.close());

const client = (options: ConstructorParameters<typeof OpenAI>[0] = {}) =>
  new OpenAI({ apiKey: "sk-standin", baseURL: server.openaiBaseUrl, ...options });
const MODEL = "gpt-standin-1";
const TOOLS = ["hire_agent", "file_approval"].map((name) => ({
  type: "function" as const,
  function: { name, description: `${name} tool`, parameters: { type: "object", properties: {} } },
}));
const HIRE = { name: "CTO", role: "Chief Technology Officer", department: "engineering" };
const FILE = { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan\n- build" };
const user = (content: string) => ({ role: "user" as const, content });

describe("Chat Completions, through the openai SDK", () => {
  it("streams two tool calls with indexes and arguments in parts, then the usage chunk and [DONE]", async () => {
    server = await startStandin({
      policy: scripted([
        reply.blocks(
          { type: "text", text: "Hiring, then filing." },
          { type: "tool_call", name: "hire_agent", input: HIRE },
          { type: "tool_call", name: "file_approval", input: FILE },
        ),
      ]),
    });
    const stream = await client().chat.completions.create({
      model: MODEL,
      messages: [{ role: "system", content: "You are the CEO." }, user("Build the team.")],
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const deltas = chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []));
    const args = [0, 1].map((i) =>
      deltas
        .filter((d) => d.index === i)
        .map((d) => d.function?.arguments ?? "")
        .join(""),
    );
    expect(args.map((a) => JSON.parse(a))).toEqual([HIRE, FILE]);
    expect(deltas.filter((d) => d.index === 0).length).toBeGreaterThan(2);
    expect(deltas.filter((d) => d.id).map((d) => d.function?.name)).toEqual(["hire_agent", "file_approval"]);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter(Boolean)).toEqual([
      "tool_calls",
    ]);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    const { request } = server.modelCalls()[0]!;
    expect(request.system).toBe("You are the CEO.");
    expect(last.usage).toMatchObject({
      prompt_tokens: countRequestTokens(request),
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens:
        countText("Hiring, then filing.") +
        countText(`hire_agent${JSON.stringify(HIRE)}`) +
        countText(`file_approval${JSON.stringify(FILE)}`),
    });
    expect(last.id).toMatch(/^standin_chatcmpl_/);
  });

  it("assembles the same answer through the SDK's stream helper and without streaming", async () => {
    server = await startStandin({ policy: () => reply.toolCall("hire_agent", HIRE, "Hiring.") });
    const streamed = await client()
      .chat.completions.stream({ model: MODEL, messages: [user("go")], tools: TOOLS })
      .finalChatCompletion();
    const plain = await client().chat.completions.create({
      model: MODEL,
      messages: [user("go")],
      tools: TOOLS,
    });
    for (const completion of [streamed, plain]) {
      const message = completion.choices[0]!.message;
      expect(message.content).toBe("Hiring.");
      const call = message.tool_calls![0]!;
      expect(call.type === "function" && JSON.parse(call.function.arguments)).toEqual(HIRE);
      expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    }
  });

  it("reads tool results back into the conversation and reports the cached prefix", async () => {
    server = await startStandin({ policy: echo });
    const first = await client().chat.completions.create({
      model: MODEL,
      messages: [user("Build the team.")],
    });
    const second = await client().chat.completions.create({
      model: MODEL,
      messages: [
        user("Build the team."),
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "hire_agent", arguments: JSON.stringify(HIRE) },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"agentId":"agt_1"}' },
      ],
    });
    expect(second.choices[0]!.message.content).toBe(
      'echo (stand-in) of tool results:\nhire_agent: {"agentId":"agt_1"}',
    );
    const [one, two] = server.modelCalls().map((c) => countRequestTokens(c.request));
    expect(first.usage).toMatchObject({ prompt_tokens: one, prompt_tokens_details: { cached_tokens: 0 } });
    expect(second.usage).toMatchObject({ prompt_tokens: two, prompt_tokens_details: { cached_tokens: one } });
  });

  it("a developer message later in the conversation stays in place, so the cached prefix holds", async () => {
    server = await startStandin({ policy: echo });
    const start = [{ role: "developer" as const, content: "You are the CEO." }, user("Build the team.")];
    const first = await client().chat.completions.create({ model: MODEL, messages: start });
    const later = [
      ...start,
      { role: "developer" as const, content: "The operator approved." },
      user("Go on."),
    ];
    const second = await client().chat.completions.create({ model: MODEL, messages: later });
    expect(second.usage?.prompt_tokens_details?.cached_tokens).toBe(first.usage?.prompt_tokens);
    const { request } = server.modelCalls()[1]!;
    expect(request.system).toBe("You are the CEO.");
    expect(request.messages[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: "[developer] The operator approved." }],
    });
  });

  it("retries a 429 after its retry-after, then succeeds", async () => {
    server = await startStandin({
      policy: scripted([reply.error("rate_limit", { retryAfterSeconds: 1 }), "ok"]),
    });
    const completion = await client().chat.completions.create({ model: MODEL, messages: [user("hi")] });
    expect(completion.choices[0]!.message.content).toBe("ok");
    const [first, retry] = server.requests;
    expect(first!.status).toBe(429);
    expect(Date.parse(retry!.at) - Date.parse(first!.at)).toBeGreaterThanOrEqual(1000);
  });

  it("answers an over-long prompt with 400 context_length_exceeded", async () => {
    server = await startStandin({ policy: echo, contextWindow: { [MODEL]: 10 } });
    const error = await client()
      .chat.completions.create({ model: MODEL, messages: [user("word ".repeat(40))] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "context_length_exceeded", param: "messages" });
    expect((error as Error).message).toMatch(/maximum context length is 10 tokens/);
  });

  it("a 429 without retries carries rate_limit_exceeded and retry-after", async () => {
    server = await startStandin({ policy: scripted([reply.error("rate_limit", { retryAfterSeconds: 3 })]) });
    const error = await client({ maxRetries: 0 })
      .chat.completions.create({ model: MODEL, messages: [user("hi")] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ code: "rate_limit_exceeded" });
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get("retry-after")).toBe("3");
  });

  it("lists models on GET /v1/models", async () => {
    server = await startStandin({ policy: echo, models: [MODEL, "gpt-standin-2"] });
    const ids = [];
    for await (const model of client().models.list()) ids.push(model.id);
    expect(ids).toEqual([MODEL, "gpt-standin-2"]);
  });

  it("a reset mid-stream and an in-stream error both fail the SDK's iteration", async () => {
    const text = reply.text("a b c d e f g h i");
    server = await startStandin({
      policy: scripted([reply.cut(text, 2, "reset"), reply.cut(text, 2, "error")]),
    });
    for (const expected of [/terminated|aborted|socket|other side closed/i, /overloaded/]) {
      const stream = await client({ maxRetries: 0 }).chat.completions.create({
        model: MODEL,
        messages: [user("hi")],
        stream: true,
      });
      const read = async () => {
        for await (const _ of stream) void _;
      };
      await expect(read()).rejects.toThrow(expected);
    }
  });
});
