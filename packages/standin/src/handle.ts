// One HTTP request, end to end: route it, read it into the normalised shape, count its input
// against the prefix cache, ask the policy, render the reply in the request's wire and write it.
// Every request is logged, including the ones refused; HTTP errors are rendered here only.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyError, readBody } from "./http/body.js";
import { emit, type EmitPlan, untilAborted } from "./http/emit.js";
import { STANDIN_HEADER, standinId } from "./ids.js";
import type { RequestLog } from "./log/request-log.js";
import { replyProblem } from "./policies/validate.js";
import type {
  Endpoint,
  Latency,
  LoggedRequest,
  Policy,
  Reply,
  StandinRequest,
  UsageCounts,
  VendorError,
} from "./types.js";
import { fitToMaxTokens } from "./usage/output.js";
import { PrefixCache, windowFor } from "./usage/prefix-cache.js";
import { countRequestTokens } from "./usage/tokens.js";
import { anthropicWire, normaliseAnthropic } from "./wires/anthropic/index.js";
import type { WireCodec } from "./wires/codec.js";
import { anthropicError, type ErrorContext, openaiError, WireRequestError } from "./wires/errors.js";
import { modelsList } from "./wires/models.js";
import { chatWire } from "./wires/openai-chat/index.js";
import { responsesWire } from "./wires/openai-responses/index.js";

export interface HandlerSettings {
  policy: Policy;
  latency?: Latency;
  contextWindow?: number | Record<string, number>;
  models?: readonly string[];
  apiKey?: string;
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
  return "other";
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/** Which vendor's error format a request gets when its endpoint does not say. */
function speaksAnthropic(endpoint: Endpoint, headers: Record<string, string>): boolean {
  if (endpoint === "messages" || endpoint === "count_tokens") return true;
  if (endpoint === "chat" || endpoint === "responses") return false;
  return headers["anthropic-version"] !== undefined || headers["x-api-key"] !== undefined;
}

function presentedKey(headers: Record<string, string>): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers["authorization"] ?? "")?.[1];
  return headers["x-api-key"] ?? bearer;
}

class Exchange {
  readonly requestId = standinId("req");
  readonly closed = new AbortController();
  readonly base: Record<string, string>;

  constructor(
    readonly res: ServerResponse,
    readonly entry: LoggedRequest,
    readonly state: HandlerState,
  ) {
    this.base = { [STANDIN_HEADER]: "1", "request-id": this.requestId, "x-request-id": this.requestId };
    res.on("close", () => this.closed.abort());
  }

  /** Records the answer and logs it before anything is written, so a hung request is logged too. */
  settle(status: number, answered: LoggedRequest["answered"]): void {
    this.entry.status = status;
    this.entry.answered = answered;
    this.state.log.settle(this.entry);
  }

  async send(plan: EmitPlan, answered: LoggedRequest["answered"]): Promise<void> {
    this.settle(plan.status, answered);
    await emit(this.res, { ...plan, headers: { ...this.base, ...plan.headers } }, this.closed.signal);
  }

  fail(error: VendorError, context: ErrorContext, extra: Record<string, string> = {}, latency?: Latency) {
    const anthropic = speaksAnthropic(this.entry.endpoint, this.entry.headers);
    const api = this.entry.endpoint === "responses" ? "responses" : "chat";
    const rendered = anthropic
      ? anthropicError(error, context, this.requestId)
      : openaiError(error, context, api);
    return this.send(
      { status: rendered.status, headers: extra, json: rendered.body, ...(latency ? { latency } : {}) },
      { kind: "error", error: `${error.kind}: ${JSON.stringify(rendered.body)}` },
    );
  }
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
  const x = new Exchange(res, entry, state);
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
  if (endpoint === "other")
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

async function modelCall(
  x: Exchange,
  codec: WireCodec,
  request: StandinRequest,
  settings: HandlerSettings,
  state: HandlerState,
): Promise<void> {
  const measure = state.cache.measure(request);
  const context: ErrorContext = {
    model: request.model,
    inputTokens: measure.total,
    ...(windowFor(settings.contextWindow, request.model) !== undefined
      ? { contextWindow: windowFor(settings.contextWindow, request.model) as number }
      : {}),
  };
  if (context.contextWindow !== undefined && measure.total > context.contextWindow)
    return x.fail({ kind: "context_overflow" }, context);
  measure.record();
  let reply: Reply;
  try {
    reply = await settings.policy(request, { callIndex: state.nextCall(), inputTokens: measure.total });
    const problem = replyProblem(reply);
    if (problem) throw new Error(`it returned an invalid reply: ${problem}`);
  } catch (error) {
    // Our test bed's bug, not a provider fault: say so and tell the SDKs not to retry it.
    const message = `stand-in policy failed: ${(error as Error).message}`;
    return x.fail({ kind: "server", message }, context, { "x-should-retry": "false" });
  }
  if (reply.type === "hang") {
    x.settle(0, { kind: "hang" });
    return untilAborted(x.closed.signal);
  }
  const latency = reply.latency ?? settings.latency;
  if (reply.type === "error") {
    const retry: Record<string, string> =
      reply.retryAfterSeconds !== undefined ? { "retry-after": String(reply.retryAfterSeconds) } : {};
    return x.fail(reply.error, context, retry, latency);
  }
  const fitted = fitToMaxTokens(reply.content, request.maxTokens);
  const usage: UsageCounts = {
    input: measure.uncached,
    cacheRead: measure.cacheRead,
    cacheWrite: measure.cacheWrite,
    output: fitted.output,
    reasoning: fitted.reasoning,
    ...reply.usage,
  };
  const model = reply.model ?? request.model;
  const rendered = codec.render({
    request,
    content: fitted.content,
    truncated: fitted.truncated,
    ...(reply.stopReason ? { stopReason: reply.stopReason } : {}),
    usage,
    model,
    now: Date.now(),
  });
  const cut = reply.cut;
  return x.send(
    {
      status: 200,
      headers: {},
      ...(request.stream ? { events: rendered.events } : { json: rendered.json }),
      ...(latency ? { latency } : {}),
      ...(cut
        ? { cut, failure: rendered.failure(cut.error ?? { kind: "overloaded" }, context, cut.afterEvents) }
        : {}),
    },
    {
      kind: "answer",
      blocks: fitted.content.map((b) =>
        b.type === "tool_call" ? { type: b.type, name: b.name } : { type: b.type },
      ),
      usage,
      model,
    },
  );
}
