// A small client of the Cadre API for the CLI's --server mode. The API's errors keep their meaning:
// a 4xx is the caller's (exit 2, the API's message on stderr), anything else a failed job (exit 1).
import { UserInputError } from "@cadre/core";

export interface ServerTarget {
  url: string;
  token: string;
}

export class ApiClient {
  constructor(private readonly target: ServerTarget) {}

  get<T>(path: string): Promise<T> {
    return this.call<T>("GET", path);
  }

  post<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
    return this.call<T>("POST", path, body);
  }

  patch<T>(path: string, body: Record<string, unknown>): Promise<T> {
    return this.call<T>("PATCH", path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.call<T>("DELETE", path);
  }

  private async call<T>(method: string, path: string, body?: Record<string, unknown>): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.target.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.target.token}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new Error(`cannot reach the Cadre API at ${this.target.url}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.ok) return parsed as T;
    const message =
      (parsed as { error?: { message?: string } } | undefined)?.error?.message ??
      `${response.status} ${response.statusText}`;
    if (response.status >= 400 && response.status < 500)
      throw new UserInputError(`the API refused ${method} ${path} (${response.status}): ${message}`);
    throw new Error(`the API failed on ${method} ${path} (${response.status}): ${message}`);
  }
}
