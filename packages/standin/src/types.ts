// The stand-in's domain types, dependency-free: the one normalised shape every wire's request is read
// into, the replies a policy answers with, and what the request log keeps.

/** The three vendor wire protocols the stand-in speaks. */
export type Wire = "anthropic" | "openai-chat" | "openai-responses";

/** A tool as the request offered it to the model. */
export interface ToolOffered {
  /** The name the model calls it by (inside its namespace, when it has one). */
  name: string;
  /** OpenAI Responses namespace tools (Codex puts MCP tools in `mcp__SERVER`); absent elsewhere. */
  namespace?: string;
  description: string;
  /** JSON Schema of the input; null for vendor built-ins (web search, tool search…). */
  inputSchema: unknown;
  /** A vendor built-in's type (`web_search`, `tool_search_tool_regex_20251119`…); absent for functions. */
  builtin?: string;
  /**
   * Offered but not loaded: `defer_loading` with no tool search result having loaded it yet. A real
   * model cannot call it; the built-in policies never do.
   */
  deferred: boolean;
  /** Anthropic `cache_control` on this tool (a prompt-cache breakpoint). */
  cacheControl?: boolean;
}

export type RequestBlock =
  | { type: "text"; text: string; cacheControl?: boolean }
  | { type: "thinking"; text: string; cacheControl?: boolean }
  | {
      type: "tool_call";
      id: string;
      name: string;
      namespace?: string;
      input: unknown;
      cacheControl?: boolean;
    }
  | { type: "tool_result"; toolCallId: string; content: string; isError: boolean; cacheControl?: boolean };

export interface RequestMessage {
  /** Tool results are user content (as Anthropic models them), whatever the wire called them. */
  role: "user" | "assistant";
  content: RequestBlock[];
}

/** Every wire's request, read into one shape. */
export interface StandinRequest {
  wire: Wire;
  /** The URL path the client used (query string removed). */
  path: string;
  model: string;
  /** All system text: Anthropic `system`, OpenAI system/developer messages and `instructions`, joined. */
  system: string;
  /** The system text as the request split it; `cacheControl` marks Anthropic breakpoints. */
  systemBlocks: Array<{ text: string; cacheControl?: boolean }>;
  messages: RequestMessage[];
  tools: ToolOffered[];
  maxTokens: number | null;
  stream: boolean;
  /** The request body as parsed JSON, untouched. */
  body: unknown;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
}

export interface UsageCounts {
  /** Uncached input tokens (Anthropic `input_tokens`; OpenAI prompt tokens minus cached). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `output`, the tokens spent on thinking (OpenAI `reasoning_tokens`). */
  reasoning: number;
}

export type ReplyBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string }
  | {
      type: "tool_call";
      name: string;
      input: unknown;
      /** Namespace of a namespaced tool (OpenAI Responses); copy it from the ToolOffered. */
      namespace?: string;
      /** Default: a `standin_`-prefixed id. */
      id?: string;
      /**
       * A call of a freeform (custom) tool, whose input is raw text (OpenAI Responses: a
       * custom_tool_call, e.g. Codex's apply_patch). Set by `reply.toolCall` for such a tool.
       */
      freeform?: boolean;
    };

export interface Latency {
  /** Wait before the response's first byte (status line and headers). */
  firstByteMs?: number;
  /** Wait before each streamed event after the first. */
  perEventMs?: number;
}

/** The vendor-independent error kinds; each wire renders its own status, body and type. */
export type ErrorKind =
  | "invalid_request"
  | "context_overflow"
  | "authentication"
  | "permission"
  | "not_found"
  | "rate_limit"
  | "server"
  | "overloaded";

export interface VendorError {
  kind: ErrorKind;
  /** Default: the vendor's own wording for the kind (with token numbers for an overflow). */
  message?: string;
  /** Default: the kind's usual status (Anthropic 529 for overloaded, OpenAI 503). */
  status?: number;
  /** OpenAI `error.code` / Responses `response.error.code`; default from the kind. */
  code?: string;
}

/** How an answer's stream stops early: a fault in the middle of a response. */
export interface StreamCut {
  /** Events sent before the fault (SSE events; for a non-streamed answer, 0 = nothing, else half the body). */
  afterEvents: number;
  /**
   * `reset`: the connection is destroyed (the client sees a network error). `end`: the response ends
   * cleanly but early (a truncated stream). `hang`: nothing more is sent until the client gives up.
   * `error`: the vendor's in-stream error event (Anthropic `error`, OpenAI chat `{error}`, Responses
   * `response.failed`), then the end.
   */
  then: "reset" | "end" | "hang" | "error";
  /** For `then: "error"`; default overloaded. */
  error?: VendorError;
}

/** A model answer: content blocks, streamed or not as the request asked. */
export interface Answer {
  type?: "answer";
  content: ReplyBlock[];
  /** The vendor's own stop value; default from the content (tool call → tool_use / tool_calls). */
  stopReason?: string;
  /** Replaces the counted usage, field by field. */
  usage?: Partial<UsageCounts>;
  /** The model the response says served it; default the requested one. */
  model?: string;
  latency?: Latency;
  cut?: StreamCut;
}

/** An HTTP error with the vendor's body, before any streaming. */
export interface ErrorReply {
  type: "error";
  error: VendorError;
  /** Sent as `retry-after` (seconds; real APIs send whole numbers, fractions keep tests short). */
  retryAfterSeconds?: number;
  latency?: Latency;
}

/** Accept the request and never answer (until the client aborts or the server closes). */
export interface HangReply {
  type: "hang";
}

export type Reply = Answer | ErrorReply | HangReply;

export interface PolicyContext {
  /** 0-based index of this model call among the server's model calls (count_tokens and models excluded). */
  callIndex: number;
  /** Input tokens the stand-in counted for this request (see usage/README). */
  inputTokens: number;
}

/** Answers one model request. Stateless like a real API: the conversation is in the request. */
export type Policy = (request: StandinRequest, context: PolicyContext) => Reply | Promise<Reply>;

/** Which endpoint a logged request reached. */
export type Endpoint = "messages" | "count_tokens" | "chat" | "responses" | "models" | "tags" | "other";

/** One HTTP request the stand-in received, and what it answered. */
export interface LoggedRequest {
  seq: number;
  /** ISO time the request arrived. */
  at: string;
  method: string;
  path: string;
  endpoint: Endpoint;
  headers: Record<string, string>;
  /** The raw body text (decompressed). */
  rawBody: string;
  /** The normalised model request; absent for requests that are not model calls or did not parse. */
  request?: StandinRequest;
  status: number;
  /** What was answered: the reply kind and, for answers, blocks and usage as sent. */
  answered?: {
    kind: "answer" | "error" | "hang" | "count" | "list" | "refused";
    blocks?: Array<{ type: string; name?: string }>;
    usage?: UsageCounts;
    model?: string;
    error?: string;
  };
}
