// An OFFLINE stand-in for an OpenAI-compatible endpoint (the `openai-compatible` connector) whose
// answers the test releases: every Chat Completions request is held until `release()`, then
// answered on the real streaming wire format with a short text and its usage. A run on it stays
// `running` for as long as the test wants — to see what the dashboard shows during a run, and
// after it, without depending on how fast anything is. Its model list (the readiness probe) is
// answered at once.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const HELD_MODEL = "held-stand-in-1b";

export interface HeldModel {
  baseUrl: string;
  /** Resolves when the n-th request (from 1) has arrived. */
  requested(n: number): Promise<void>;
  /** Answers every held request, and every later one at once. */
  release(): void;
  /** Holds the requests that arrive from now on again. */
  hold(): void;
  close(): Promise<void>;
}

const chunk = (body: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: "chatcmpl-held", object: "chat.completion.chunk", created: 0, model: HELD_MODEL, ...body })}\n\n`;

const ANSWER =
  chunk({
    choices: [
      {
        index: 0,
        delta: { role: "assistant", content: "Held stand-in: done for now." },
        finish_reason: null,
      },
    ],
  }) +
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }) +
  chunk({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 8, total_tokens: 108 } }) +
  "data: [DONE]\n\n";

export async function startHeldModel(): Promise<HeldModel> {
  let count = 0;
  let released = false;
  const held: ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const answer = (res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(ANSWER);
  };
  const server = createServer((req, res) => {
    req.resume();
    // The connector's readiness probe (GET …/models) is answered at once and not counted: only
    // the model calls are held.
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          data: [{ id: HELD_MODEL, object: "model", created: 0, owned_by: "held-stand-in" }],
        }),
      );
      return;
    }
    // Anything else but a model call (Ollama's tags listing, say) is not found, as on a real
    // OpenAI-compatible server.
    if (req.method !== "POST") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `no route for ${req.method} ${req.url}` } }));
      return;
    }
    req.on("end", () => {
      count++;
      for (const w of waiters.filter((x) => x.n <= count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (released) answer(res);
      else held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requested: (n) =>
      count >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    release() {
      released = true;
      for (const res of held.splice(0)) answer(res);
    },
    hold() {
      released = false;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Declares the stand-in's model in DIR/cadre.config.json, as a user declares a local model. */
export async function declareHeldModel(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const model = {
    id: HELD_MODEL,
    contextWindow: 128_000,
    maxOutput: 4096,
    price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  await writeFile(join(dataDir, "cadre.config.json"), JSON.stringify({ models: [model] }));
}
