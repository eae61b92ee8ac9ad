// An OFFLINE stand-in for an OpenAI-compatible endpoint (the `openai-compatible` connector), on a
// loopback port, speaking the Chat Completions streaming wire protocol. The first model call of a
// conversation completes (a `hire_agent` call with no arguments, which the tool refuses, plus its
// usage); a later one (the conversation holds a tool result) is left waiting, as a provider that
// stopped answering would. A test then interrupts a run at a known point: one model call
// completed, the next one in flight.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const STAND_IN_MODEL = "stand-in-chat-7b";
/** What the completed call reports: prompt_tokens (none cached) and completion_tokens. */
export const STAND_IN_USAGE = { prompt: 1234, completion: 56 };

export interface OpenAIStandIn {
  baseUrl: string;
  /** Resolves when the n-th model call (from 1; a GET of the model list is none) has arrived. */
  requested(n: number): Promise<void>;
  close(): Promise<void>;
}

function chunk(body: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ id: "chatcmpl-stand-in", object: "chat.completion.chunk", created: 0, model: STAND_IN_MODEL, ...body })}\n\n`;
}

/** The first answer of a conversation: one call of `tool` with `args`, its usage, the end. */
function firstAnswer(tool: string, args: Record<string, unknown>): string {
  const call = {
    index: 0,
    id: "call_stand_in_1",
    type: "function",
    function: { name: tool, arguments: JSON.stringify(args) },
  };
  return (
    chunk({
      choices: [
        { index: 0, delta: { role: "assistant", content: null, tool_calls: [call] }, finish_reason: null },
      ],
    }) +
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }) +
    chunk({
      choices: [],
      usage: {
        prompt_tokens: STAND_IN_USAGE.prompt,
        completion_tokens: STAND_IN_USAGE.completion,
        total_tokens: STAND_IN_USAGE.prompt + STAND_IN_USAGE.completion,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    }) +
    "data: [DONE]\n\n"
  );
}

export interface StandInOptions {
  /** The tool the first model call calls, and its arguments; default `hire_agent` with none (refused). */
  tool?: string;
  args?: Record<string, unknown>;
}

export async function startOpenAIStandIn(options: StandInOptions = {}): Promise<OpenAIStandIn> {
  const answer = firstAnswer(options.tool ?? "hire_agent", options.args ?? {});
  let count = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      // The model list a readiness probe asks for: answered, never counted as a model call.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: STAND_IN_MODEL, object: "model" }] }));
      return;
    }
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const n = ++count;
      for (const w of waiters.filter((x) => x.n <= n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      let messages: Array<{ role?: string }> = [];
      try {
        messages = (JSON.parse(body) as { messages?: Array<{ role?: string }> }).messages ?? [];
      } catch {
        // not JSON: answered as a first call
      }
      if (messages.some((m) => m.role === "tool")) return; // left waiting until the client goes away
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requested: (n) =>
      count >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Declares the stand-in's model in DIR/cadre.config.json, as a user declares a local model. */
export async function declareStandInModel(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const model = {
    id: STAND_IN_MODEL,
    contextWindow: 128_000,
    maxOutput: 4096,
    price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  await writeFile(join(dataDir, "cadre.config.json"), JSON.stringify({ models: [model] }));
}
