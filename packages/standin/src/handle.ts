// One HTTP request: route it, read its body and read it into the normalised shape, then answer it
// (models, count_tokens, or a model call: model-call.ts). Every request is logged, refused ones too;
// HTTP errors are rendered in one place, the Exchange.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Exchange, speaksAnthropic } from "./exchange.js";
import { BodyError, readBody } from "./http/body.js";
import type { RequestLog } from "./log/request-log.js";
import { modelCall } from "./model-call.js";
import type { Endpoint, Latency, LoggedRequest, Policy, StandinRequest } from "./types.js";
import type { PrefixCache } from "./usage/prefix-cache.js";
import { countRequestTokens } from "./usage/tokens.js";
import { anthropicWire, normaliseAnthropic } from "./wires/anthropic/index.js";
import type { WireCodec } from "./wires/codec.js";
import { type ErrorContext, WireRequestError } from "./wires/errors.js";
import { modelsList } from "./wires/models.js";
import { ollamaTags } from "./wires/ollama-tags.js";
import { chatWire } from "./wires/openai-chat/index.js";
import { responsesWire } from "./wires/openai-responses/index.js";

export interface HandlerSettings {
  policy: Policy;
  latency?: Latency;
  contextWindow?: number | Record<string, number>;
  models?: readonly string[];
  apiKey?: string;
  /** Ollama's local models and their digests (GET /api/tags); no such route when absent. */
  digests?: Record<string, string>;
}

export interface HandlerState {
  log: RequestLog;
  cache: PrefixCache;
  /** The index the next model call gets (PolicyContext.callIndex). */
  nextCall(): number;
}

const CODECS: Partial<Record<Endpoint, WireCodec>> = {
  messages: anthropicWire,
  chat: chatWire,
  responses: responsesWire,
};

export const ROUTES =
  "POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/chat/completions, POST /v1/responses, GET /v1/models";

function endpointOf(method: string, path: string): Endpoint {
  if (method === "POST" && path.endsWith("/messages/count_tokens")) return "count_tokens";
  if (method === "POST" && path.endsWith("/messages")) return "messages";
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat";
  if (method === "POST" && path.endsWith("/responses")) return "responses";
  if (method === "GET" && /\/models(\/[^/]+)?$/.test(path)) return "models";
  if (method === "GET" && path === "/api/tags") return "tags";
  return "other";
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function presentedKey(headers: Record<string, string>): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers["authorization"] ?? "")?.[1];
  return headers["x-api-key"] ?? bearer;
}

export async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  settings: HandlerSettings,
  state: HandlerState,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
  const method = req.method ?? "GET";
  const headers = flatHeaders(req);
  const endpoint = endpointOf(method, path);
  const entry: LoggedRequest = {
    seq: state.log.entries.length + 1,
    at: new Date().toISOString(),
    method,
    path,
    endpoint,
    headers,
    rawBody: "",
    status: 0,
  };
  state.log.add(entry);
  const x = new Exchange(res, entry, state.log);
  const none: ErrorContext = { model: "", inputTokens: 0 };
  try {
    entry.rawBody = await readBody(req);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return x.fail({ kind: "invalid_request", status: error.status, message: error.message }, none);
  }
  if (settings.apiKey !== undefined && presentedKey(headers) !== settings.apiKey && endpoint !== "other")
    return x.fail({ kind: "authentication" }, none);
  if (endpoint === "models") {
    const list = modelsList(path, speaksAnthropic(endpoint, headers), settings.models);
    if (!list)
      return x.fail({ kind: "not_found", message: `stand-in: no model ${path.split("/").pop()}` }, none);
    return x.send({ status: 200, headers: {}, json: list }, { kind: "list" });
  }
  if (endpoint === "tags" && settings.digests)
    return x.send({ status: 200, headers: {}, json: ollamaTags(settings.digests) }, { kind: "list" });
  if (endpoint === "other" || endpoint === "tags")
    return x.fail(
      { kind: "not_found", message: `stand-in: no route ${method} ${path} (routes: ${ROUTES})` },
      none,
    );
  let body: unknown;
  try {
    body = JSON.parse(entry.rawBody);
  } catch (error) {
    return x.fail(
      { kind: "invalid_request", message: `stand-in: the body is not JSON (${(error as Error).message})` },
      none,
    );
  }
  let request: StandinRequest;
  try {
    const codec = CODECS[endpoint];
    request = codec ? codec.normalise(body, headers, path) : normaliseAnthropic(body, headers, path, true);
  } catch (error) {
    if (!(error instanceof WireRequestError)) throw error;
    return x.fail(error.error, none);
  }
  entry.request = request;
  if (settings.models && !settings.models.includes(request.model))
    return x.fail({ kind: "not_found" }, { model: request.model, inputTokens: 0 });
  const codec = CODECS[endpoint];
  if (!codec) {
    return x.send(
      { status: 200, headers: {}, json: { input_tokens: countRequestTokens(request) } },
      { kind: "count" },
    );
  }
  return modelCall(x, codec, request, settings, state);
}
