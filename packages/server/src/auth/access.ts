// What each kind of caller may reach. Route specs name one access level; the app checks it before
// reading the body, so an unauthorised caller never makes the server parse or write anything.
import { forbidden } from "../http/errors.js";
import type { Caller } from "./principal.js";

/**
 * - public: no token needed (health, OpenAPI document).
 * - authenticated: any valid token (the route itself narrows what an agent sees).
 * - company: the operator, or an agent of the company the resource belongs to (read, and the agent
 *   actions hire / file approval, whose handlers then apply the role and mode rules).
 * - operator: the operator only (create companies and connectors, decide approvals, mint keys,
 *   wake agents, remove agents).
 */
export type Access = "public" | "authenticated" | "company" | "operator";

export function requireOperator(principal: Caller): void {
  if (principal.kind !== "operator") throw forbidden("only the operator may do this; agent tokens cannot");
}

export function requireCompany(principal: Caller, companyId: string): void {
  if (principal.kind === "anonymous") throw forbidden("this route needs a token");
  if (principal.kind === "agent" && principal.companyId !== companyId)
    throw forbidden("this agent token belongs to another company");
}
