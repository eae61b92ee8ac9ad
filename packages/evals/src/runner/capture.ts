// Observes what the model is actually sent: a stream-function wrapper that keeps the first
// request's system prompt and tool list. Measuring the request itself (not a rebuilt copy) means a
// profile that assembles its prompt differently is measured as it is, and it works the same for
// the offline model, a live vendor and a replayed cassette.
import type { StreamFn } from "@cadre/core";

export interface CapturedRequest {
  systemPrompt: string;
  tools: Array<{ name: string; parameters: unknown }>;
}

export interface Capture {
  wrap(inner: StreamFn): StreamFn;
  /** A harness that runs its own loop (Claude Code, Codex) is handed the prompt and tools once. */
  see(request: CapturedRequest): void;
  first(): CapturedRequest | undefined;
}

export function captureRequests(): Capture {
  let first: CapturedRequest | undefined;
  return {
    wrap: (inner) => (model, context, options) => {
      first ??= {
        systemPrompt: context.systemPrompt ?? "",
        tools: (context.tools ?? []).map((t) => ({ name: t.name, parameters: t.parameters })),
      };
      return inner(model, context, options);
    },
    see: (request) => {
      first ??= request;
    },
    first: () => first,
  };
}
