// scripted([...]): the Nth model call the server receives (PolicyContext.callIndex) gets step N,
// a Reply or a function of the request. A call past the end gets a 400 that says the script ran
// out (not retried by the SDKs, readable in any error message).
import type { Policy, PolicyContext, Reply, StandinRequest } from "../types.js";

export type Step =
  Reply | string | ((request: StandinRequest, context: PolicyContext) => Reply | Promise<Reply>);

export function scripted(steps: readonly Step[]): Policy {
  return (request, context) => {
    const step = steps[context.callIndex];
    if (step === undefined)
      return {
        type: "error",
        error: {
          kind: "invalid_request",
          message: `stand-in: scripted policy exhausted: ${steps.length} replies scripted, this is model call ${context.callIndex + 1}`,
        },
      };
    if (typeof step === "string") return { content: [{ type: "text", text: step }] };
    return typeof step === "function" ? step(request, context) : step;
  };
}
