// For tests whose CEO runs on an `openai-compatible` connector pointed at a @cadre/standin server
// (OFFLINE: scripted answers on the real Chat Completions wire): the model id a user would declare
// for such an endpoint, and a way to wait until the n-th model call has reached the stand-in.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Policy, startStandin, type StandinServer } from "@cadre/standin";

// A size in its name: a local model id that names none floats (MC-6), and is refused.
export const STANDIN_MODEL = "standin-chat-1b";

export interface WatchedStandin {
  server: StandinServer;
  /** The connector's `config.baseUrl`. */
  baseUrl: string;
  /** Resolves once the n-th model call (from 1) has arrived and its answer is decided. */
  modelCalls(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWatchedStandin(policy: Policy): Promise<WatchedStandin> {
  let calls = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = await startStandin({
    policy,
    onRequest: (entry) => {
      if (entry.request === undefined) return;
      calls += 1;
      for (const w of waiters.filter((x) => x.n <= calls)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
  });
  return {
    server,
    baseUrl: server.openaiBaseUrl,
    modelCalls: (n) =>
      calls >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () => server.close(),
  };
}

/** Declares the stand-in's model in DIR/cadre.config.json, as a user declares a local model. */
export async function declareStandinModel(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const model = {
    id: STANDIN_MODEL,
    contextWindow: 128_000,
    maxOutput: 4096,
    price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  await writeFile(join(dataDir, "cadre.config.json"), JSON.stringify({ models: [model] }));
}
