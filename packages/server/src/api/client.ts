// The one client of the Cadre API, shared by the CLI (`--server`) and the dashboard. It is typed by
// the route table (endpoints.ts: each endpoint's path parameters, query, body and answer are the
// `Static<>` of the route's own schemas) and reads the one error envelope the server answers
// (`ErrorBody`, http/errors.ts). This file imports types only, so a bundle that uses it carries
// this file and no other server code; `api-client.test.ts` checks its built output imports nothing.
import type { ErrorBody } from "../http/errors.js";
import type { AnswerOf, ApiEndpoints, Endpoint } from "./endpoints.js";

export type { AnswerOf, ApiEndpoints, BodyOfEndpoint, Endpoint, EndpointTypes } from "./endpoints.js";
export type { ErrorBody } from "../http/errors.js";

/** An answer that is not a success, or no answer at all (`status` 0, code "unreachable"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> | undefined,
    /** The request, e.g. "GET /api/companies". */
    readonly request: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type ParamsPart<P> = P extends undefined ? { params?: undefined } : { params: P };
type QueryPart<Q> = Q extends undefined ? { query?: undefined } : { query?: Q };
/** A body whose fields are all optional may be left out. */
type BodyPart<B> = B extends undefined
  ? { body?: undefined }
  : Partial<B> extends B
    ? { body?: B }
    : { body: B };

/** What a call of endpoint K takes: its path parameters, query and body, as the route's schemas say. */
export type CallInput<K extends Endpoint> = ParamsPart<ApiEndpoints[K]["params"]> &
  QueryPart<ApiEndpoints[K]["query"]> &
  BodyPart<ApiEndpoints[K]["body"]>;

/** The arguments of `call(endpoint, …)`: the input, optional when nothing in it is required. */
export type CallArgs<K extends Endpoint> =
  Partial<CallInput<K>> extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

export interface ApiClient {
  /** The server's origin ("" for the page's own). */
  readonly baseUrl: string;
  readonly token: string;
  /** `call("GET /api/companies/{id}", { params: { id } })` → the company, typed by its route's schema. */
  call<K extends Endpoint>(endpoint: K, ...input: CallArgs<K>): Promise<AnswerOf<K>>;
  /** A file a route serves (a task's file handed in): its bytes and headers, e.g. `x-content-sha256`. */
  file(path: string): Promise<{ bytes: Uint8Array; headers: Headers }>;
}

export interface ApiClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:7420; "" (default) for the page's own. */
  baseUrl?: string;
  token: string;
  /** Called on any 401: the token is no longer accepted (e.g. a restarted server has a new one). */
  onUnauthorized?(error: ApiError): void;
  fetch?: typeof fetch;
}

/** The path of a template with its parameters filled in, e.g. /api/agents/agt_1/keys. */
export function fillPath(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === "")
      throw new TypeError(`${template}: the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}

function queryString(query: Record<string, string | number | undefined> | undefined): string {
  const pairs = Object.entries(query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
  return pairs.length === 0
    ? ""
    : `?${new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

/** The ApiError of a response that is not a success: the server's envelope, else its status. */
export async function apiErrorOf(response: Response, request: string): Promise<ApiError> {
  let body: Partial<ErrorBody> | undefined;
  try {
    const text = await response.text();
    body = text.length > 0 ? (JSON.parse(text) as Partial<ErrorBody>) : undefined;
  } catch {
    body = undefined;
  }
  const error = body?.error;
  return new ApiError(
    response.status,
    typeof error?.code === "string" ? error.code : `http_${response.status}`,
    typeof error?.message === "string"
      ? error.message
      : `${request} answered ${response.status} ${response.statusText}`.trim(),
    error?.fields,
    request,
  );
}

/** Why a fetch failed, as the network said it (Node's "fetch failed" keeps the reason in its cause). */
function networkDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.message === "string" && cause.message !== "") return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  /** One request: an API that does not answer, or answers an error, is an ApiError saying so. */
  async function send(path: string, request: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      // `cache` is the browser's (Node's types lack it; Node's fetch accepts it): never a stale read.
      response = await fetcher(`${baseUrl}${path}`, { ...init, cache: "no-store" } as RequestInit);
    } catch (error) {
      throw new ApiError(
        0,
        "unreachable",
        `the Cadre API${baseUrl ? ` at ${baseUrl}` : ""} did not answer (${networkDetail(error)}); is \`cadre serve\` running there?`,
        undefined,
        request,
      );
    }
    if (!response.ok) {
      const error = await apiErrorOf(response, request);
      if (response.status === 401) options.onUnauthorized?.(error);
      throw error;
    }
    return response;
  }
  async function call(
    endpoint: string,
    input: {
      params?: Record<string, string>;
      query?: Record<string, string | number | undefined>;
      body?: unknown;
    } = {},
  ): Promise<unknown> {
    const space = endpoint.indexOf(" ");
    const method = endpoint.slice(0, space);
    const path = fillPath(endpoint.slice(space + 1), input.params) + queryString(input.query);
    const request = `${method} ${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.token}`,
      accept: "application/json",
    };
    // POST and PATCH always carry a JSON body ({} when the route's fields are all optional).
    const body = method === "POST" || method === "PATCH" ? (input.body ?? {}) : input.body;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await send(path, request, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return text.length > 0 ? JSON.parse(text) : undefined;
  }
  async function file(path: string): Promise<{ bytes: Uint8Array; headers: Headers }> {
    const request = `GET ${path}`;
    const response = await send(path, request, { headers: { authorization: `Bearer ${options.token}` } });
    return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
  }
  return { baseUrl, token: options.token, call: call as ApiClient["call"], file };
}

/** The endpoints that answer a page of a list: `{ items, nextCursor }`. */
export type ListEndpoint = {
  [K in Endpoint]: AnswerOf<K> extends { items: unknown[]; nextCursor: string | null } ? K : never;
}[Endpoint];

/** One item of a list endpoint's pages. */
export type ItemOf<K extends ListEndpoint> = AnswerOf<K> extends { items: (infer T)[] } ? T : never;

/**
 * Every item of a list, read page after page (for a caller that needs the whole list: picking the
 * only company, finding an agent by name). A page's own cursor is followed, never guessed.
 */
export async function listAll<K extends ListEndpoint>(
  api: ApiClient,
  endpoint: K,
  ...input: CallArgs<K>
): Promise<ItemOf<K>[]> {
  const first = (input[0] ?? {}) as { query?: Record<string, string | number | undefined> };
  const items: ItemOf<K>[] = [];
  let after: string | undefined;
  for (;;) {
    const query = { ...first.query, ...(after !== undefined ? { after } : {}) };
    const call = api.call as (
      e: string,
      i: unknown,
    ) => Promise<{ items: ItemOf<K>[]; nextCursor: string | null }>;
    const page = await call(endpoint, { ...first, query });
    items.push(...page.items);
    if (page.nextCursor === null) return items;
    after = page.nextCursor;
  }
}
