// Observes what the model is actually sent: a wrapper around the offline CEO's script that keeps
// the first request's system prompt and tool list. Measuring the request itself (not a rebuilt
// copy) means a profile that assembles its prompt differently is measured as it is.
import type { Script, ScriptRequest } from "@cadre/core";

export interface CapturedRequest {
  systemPrompt: string;
  tools: Array<{ name: string; parameters: unknown }>;
}

export interface Capture {
  script: Script;
  first(): CapturedRequest | undefined;
  calls(): number;
}

export function captureRequests(inner: Script): Capture {
  let first: CapturedRequest | undefined;
  let calls = 0;
  return {
    script: (request: ScriptRequest) => {
      calls++;
      first ??= {
        systemPrompt: request.context.systemPrompt ?? "",
        tools: (request.context.tools ?? []).map((t) => ({ name: t.name, parameters: t.parameters })),
      };
      return inner(request);
    },
    first: () => first,
    calls: () => calls,
  };
}
