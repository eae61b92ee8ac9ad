// The stand-in model server: one HTTP server on 127.0.0.1 speaking the Anthropic Messages, OpenAI
// Chat Completions and OpenAI Responses wires, answered by a policy. It is offline and says so:
// every id starts with `standin_`, every response carries `x-cadre-standin: 1`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { handle, type HandlerSettings } from "./handle.js";
import { STANDIN_HEADER } from "./ids.js";
import { RequestLog } from "./log/request-log.js";
import { toolNames } from "./tools.js";
import type { Latency, LoggedRequest, Policy, StandinRequest } from "./types.js";
import { PrefixCache } from "./usage/prefix-cache.js";

export interface StandinOptions {
  policy: Policy;
  /** Default 0: a free port. The server listens on 127.0.0.1 only. */
  port?: number;
  /** Append one JSON line per request to this file. */
  logFile?: string;
  /** Latency for every answer and error that does not set its own. */
  latency?: Latency;
  /** A context window (tokens) for every model, or per model id: longer requests get the vendor's overflow error. */
  contextWindow?: number | Record<string, number>;
  /** The model ids served (and listed by GET /v1/models); others get the vendor's 404. Default: any id. */
  models?: readonly string[];
  /** When set, requests must present it (`x-api-key` or `Authorization: Bearer`), else the vendor's 401. */
  apiKey?: string;
  /** Answer GET /api/tags as Ollama does: these model names and the digest pulled under each. */
  digests?: Record<string, string>;
  /** Called once per request when its answer is decided (the CLI prints a line from it). */
  onRequest?: (entry: LoggedRequest) => void;
}

export type ModelCall = LoggedRequest & { request: StandinRequest };

export interface StandinServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** For ANTHROPIC_BASE_URL and the Anthropic SDK's baseURL (the SDK adds /v1/messages). */
  anthropicBaseUrl: string;
  /** For the OpenAI SDK's baseURL, OPENAI_BASE_URL, a Codex model provider's base_url: URL/v1. */
  openaiBaseUrl: string;
  /** Every request received, in order (model calls, count_tokens, models, refused ones). */
  readonly requests: readonly LoggedRequest[];
  /** The model calls only: requests that were read into the normalised shape on a model endpoint. */
  modelCalls(): ModelCall[];
  /** Names of the tools the model could call in model call `index` (negative: from the end; default the last). */
  toolsOffered(index?: number): string[];
  /** What an Ollama `pull` does to a tag: the name now lists another digest (GET /api/tags). */
  repoint(name: string, digest: string): void;
  /** Stops listening and ends open connections (hung requests included); idempotent. */
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startStandin(options: StandinOptions): Promise<StandinServer> {
  const log = new RequestLog(options.logFile, options.onRequest);
  const cache = new PrefixCache();
  let calls = 0;
  const settings: HandlerSettings = {
    policy: options.policy,
    ...(options.latency ? { latency: options.latency } : {}),
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.digests ? { digests: { ...options.digests } } : {}),
  };
  const server = createServer((req, res) => {
    handle(req, res, settings, { log, cache, nextCall: () => calls++ }).catch((error: unknown) => {
      // A bug in the stand-in itself: answer 500 if nothing was sent yet, never crash the process.
      if (!res.headersSent) {
        res.writeHead(500, {
          "content-type": "text/plain",
          [STANDIN_HEADER]: "1",
          "x-should-retry": "false",
        });
        res.end(`stand-in internal error: ${error instanceof Error ? error.stack : String(error)}`);
      } else res.destroy();
    });
  });
  const address = await listen(server, options.port ?? 0);
  const url = `http://127.0.0.1:${address.port}`;
  let closing: Promise<void> | undefined;
  const modelCalls = () =>
    log.entries.filter(
      (e): e is ModelCall =>
        e.request !== undefined &&
        (e.endpoint === "messages" || e.endpoint === "chat" || e.endpoint === "responses"),
    );
  return {
    url,
    port: address.port,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests: log.entries,
    modelCalls,
    toolsOffered(index = -1) {
      const call = modelCalls().at(index);
      if (!call) throw new Error(`stand-in: no model call ${index} (${modelCalls().length} so far)`);
      return toolNames(call.request);
    },
    repoint(name, digest) {
      settings.digests = { ...settings.digests, [name]: digest };
    },
    close() {
      // Once, however often it is called (a test's own close and its afterEach).
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => log.close());
      return closing;
    },
  };
}
