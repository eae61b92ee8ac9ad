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

export const STAND_IN_MODEL = "stand-in-chat-1";
/** What the completed call reports: prompt_tokens (none cached) and completion_tokens. */
export const STAND_IN_USAGE = { prompt: 1234, completion: 56 };

export interface OpenAIStandIn {
  baseUrl: string;
  /** Resolves when the n-th request (from 1) has arrived. */
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

/** A stream answering with one call of `tool`, or with a text (no tool), in the Chat Completions wire format. */
function answer(
  reply: { tool: string; args: Record<string, unknown> } | { text: string },
  n: number,
): string {
  const delta =
    "tool" in reply
      ? {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              index: 0,
              id: `call_task_${n}`,
              type: "function",
              function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
            },
          ],
        }
      : { role: "assistant", content: reply.text };
  return (
    chunk({ choices: [{ index: 0, delta, finish_reason: null }] }) +
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool" in reply ? "tool_calls" : "stop" }] }) +
    chunk({
      choices: [],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 10,
        total_tokens: 110,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    }) +
    "data: [DONE]\n\n"
  );
}

export interface TaskStandIn {
  baseUrl: string;
  /** Resolves when a request that is being left waiting (the held one) has arrived. */
  held(): Promise<void>;
  /** From now on no request is left waiting. */
  release(): void;
  close(): Promise<void>;
}

/**
 * An OFFLINE stand-in member on the Chat Completions wire: it works the task its first turn names
 * (update_task in_progress, then done with a deliverable, then a last word), and — while holding —
 * leaves the call after its first tool result waiting, as a provider that stopped answering would:
 * a test can then kill the run mid-task, at a known point.
 */
export async function startTaskStandIn(): Promise<TaskStandIn> {
  let holding = true;
  let n = 0;
  let heldResolve: () => void = () => {};
  const held = new Promise<void>((resolve) => (heldResolve = resolve));
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      n++;
      const messages = (JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> }).messages;
      const user = messages.find((m) => m.role === "user");
      const taskId =
        /task_[0-9a-f]{16}/.exec(
          typeof user?.content === "string" ? user.content : JSON.stringify(user?.content),
        )?.[0] ?? "none";
      const results = messages.filter((m) => m.role === "tool").length;
      if (results === 1 && holding) return void heldResolve(); // left waiting until the client goes away
      const reply =
        results === 0
          ? { tool: "update_task", args: { taskId, status: "in_progress" } }
          : results === 1
            ? {
                tool: "update_task",
                args: { taskId, status: "done", deliverable: "Finished after the interruption." },
              }
            : { text: "Done." };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(answer(reply, n));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    held: () => held,
    release: () => (holding = false),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
