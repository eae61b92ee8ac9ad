// The HTTP API client: JSON in and out, the operator token as a bearer token, and the API's error
// body ({ error: { code, message, fields } }) turned into an ApiError the views can show as is.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface Api {
  readonly token: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

export interface ApiOptions {
  /** Called on any 401: the token is no longer accepted (e.g. the server restarted with a new one). */
  onUnauthorized?(error: ApiError): void;
  fetch?: typeof fetch;
}

export function createApi(token: string, options: ApiOptions = {}): Api {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    const hasBody = method !== "GET" && method !== "DELETE";
    if (hasBody) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetcher(path, {
        method,
        headers,
        cache: "no-store",
        ...(hasBody ? { body: JSON.stringify(body ?? {}) } : {}),
      });
    } catch (error) {
      throw new ApiError(
        0,
        "unreachable",
        `the Cadre server did not answer (${error instanceof Error ? error.message : String(error)}); is \`cadre serve\` still running?`,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const e = (
        parsed as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined
      )?.error;
      const error = new ApiError(
        response.status,
        e?.code ?? `http_${response.status}`,
        e?.message ?? `${method} ${path} answered ${response.status}`,
        e?.fields,
      );
      if (response.status === 401) options.onUnauthorized?.(error);
      throw error;
    }
    return parsed as T;
  }
  return {
    token,
    get: (path) => request("GET", path),
    post: (path, body) => request("POST", path, body),
    delete: (path) => request("DELETE", path),
  };
}
