// Vendor error bodies: each error kind rendered with the status, body shape and wording the vendor
// uses, so SDK error classes, retry rules and Cadre's error classifier see what they would see live.
import type { ErrorKind, VendorError } from "../types.js";

export interface ErrorContext {
  model: string;
  /** Counted input tokens (the overflow wording quotes them). */
  inputTokens: number;
  /** The model's context window, when the server knows one. */
  contextWindow?: number;
}

export interface RenderedError {
  status: number;
  body: unknown;
}

/** A request the stand-in refuses while reading it (bad JSON, a missing field): a 400 of its wire. */
export class WireRequestError extends Error {
  constructor(readonly error: VendorError) {
    super(error.message ?? error.kind);
    this.name = "WireRequestError";
  }
}

export function invalidRequest(message: string): WireRequestError {
  return new WireRequestError({ kind: "invalid_request", message });
}

const ANTHROPIC: Record<ErrorKind, { status: number; type: string; message: (c: ErrorContext) => string }> = {
  invalid_request: { status: 400, type: "invalid_request_error", message: () => "Invalid request" },
  context_overflow: {
    status: 400,
    type: "invalid_request_error",
    message: (c) =>
      `prompt is too long: ${c.inputTokens} tokens > ${c.contextWindow ?? c.inputTokens - 1} maximum`,
  },
  authentication: { status: 401, type: "authentication_error", message: () => "invalid x-api-key" },
  permission: {
    status: 403,
    type: "permission_error",
    message: () => "Your API key does not have permission to use the specified resource.",
  },
  not_found: { status: 404, type: "not_found_error", message: (c) => `model: ${c.model}` },
  rate_limit: {
    status: 429,
    type: "rate_limit_error",
    message: () =>
      "This request would exceed the rate limit for your organization of input tokens per minute. (stand-in)",
  },
  server: { status: 500, type: "api_error", message: () => "Internal server error" },
  overloaded: { status: 529, type: "overloaded_error", message: () => "Overloaded" },
};

/** The `error` object of an Anthropic error body (also of an in-stream `error` event). */
export function anthropicErrorObject(error: VendorError, context: ErrorContext) {
  const spec = ANTHROPIC[error.kind];
  return { type: spec.type, message: error.message ?? spec.message(context) };
}

export function anthropicError(error: VendorError, context: ErrorContext, requestId: string): RenderedError {
  return {
    status: error.status ?? ANTHROPIC[error.kind].status,
    body: { type: "error", error: anthropicErrorObject(error, context), request_id: requestId },
  };
}

type OpenAiSpec = {
  status: number;
  type: string;
  code: string | null;
  message: (c: ErrorContext, api: OpenAiApi) => string;
};
export type OpenAiApi = "chat" | "responses";

const OPENAI: Record<ErrorKind, OpenAiSpec> = {
  invalid_request: {
    status: 400,
    type: "invalid_request_error",
    code: null,
    message: () => "Invalid request",
  },
  context_overflow: {
    status: 400,
    type: "invalid_request_error",
    code: "context_length_exceeded",
    message: (c, api) =>
      api === "responses"
        ? "Your input exceeds the context window of this model. Please adjust your input and try again."
        : `This model's maximum context length is ${c.contextWindow ?? c.inputTokens - 1} tokens. However, your messages resulted in ${c.inputTokens} tokens. Please reduce the length of the messages.`,
  },
  authentication: {
    status: 401,
    type: "invalid_request_error",
    code: "invalid_api_key",
    message: () => "Incorrect API key provided. (stand-in)",
  },
  permission: {
    status: 403,
    type: "invalid_request_error",
    code: "permission_denied",
    message: () => "You are not allowed to use this resource. (stand-in)",
  },
  not_found: {
    status: 404,
    type: "invalid_request_error",
    code: "model_not_found",
    message: (c) => `The model \`${c.model}\` does not exist or you do not have access to it.`,
  },
  rate_limit: {
    status: 429,
    type: "tokens",
    code: "rate_limit_exceeded",
    message: (c) => `Rate limit reached for ${c.model} on tokens per min (TPM). (stand-in)`,
  },
  server: {
    status: 500,
    type: "server_error",
    code: "server_error",
    message: () => "The server had an error while processing your request. Sorry about that!",
  },
  overloaded: {
    status: 503,
    type: "server_error",
    code: "server_is_overloaded",
    message: () => "The engine is currently overloaded, please try again later.",
  },
};

/** The `error` object of an OpenAI error body (also the `response.error` of a failed response). */
export function openaiErrorObject(error: VendorError, context: ErrorContext, api: OpenAiApi) {
  const spec = OPENAI[error.kind];
  const param = error.kind === "context_overflow" ? (api === "responses" ? "input" : "messages") : null;
  return {
    message: error.message ?? spec.message(context, api),
    type: spec.type,
    param,
    code: error.code ?? spec.code,
  };
}

export function openaiError(error: VendorError, context: ErrorContext, api: OpenAiApi): RenderedError {
  return {
    status: error.status ?? OPENAI[error.kind].status,
    body: { error: openaiErrorObject(error, context, api) },
  };
}
