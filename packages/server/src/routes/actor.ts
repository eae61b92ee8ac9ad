// The company actor a request acts as: the operator (no agent) or the token's agent, always through
// the HTTP path, so every record it creates says `via: "http"` (C4-6).
import type { Actor } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import type { Caller } from "../auth/principal.js";
import { unauthorized } from "../http/errors.js";

export function httpActor(principal: Caller, companyId: string): Actor {
  if (principal.kind === "anonymous")
    throw unauthorized("missing credentials: send Authorization: Bearer TOKEN");
  return principal.kind === "agent"
    ? { companyId, agentId: principal.agentId, via: "http", runId: principal.runId }
    : {
        companyId,
        agentId: null,
        via: "http",
        runId: null,
        ...(principal.operatorId !== null ? { operator: principal.name } : {}),
      };
}

/** A handler's refusal (ActionResult) becomes the error the client reads: 400, naming the fields. */
export function refusal(result: { message: string; fields: Record<string, string> }): UserInputError {
  return new UserInputError(result.message, result.fields);
}
