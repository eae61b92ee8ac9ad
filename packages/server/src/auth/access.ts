// What each kind of caller may reach, decided here for every route (app.ts calls these before it
// reads the body, so an unauthorised caller never makes the server parse or write anything).
import { operatorMay, ROLE_RANK } from "@cadre/company";
import type { OperatorRole } from "@cadre/model";
import { forbidden } from "../http/errors.js";
import type { Caller } from "./principal.js";

/**
 * - public: no token needed (health, OpenAPI document).
 * - authenticated: any valid token (the route itself narrows what an agent or a company-limited
 *   operator sees).
 * - company: an operator, or an agent of the company the resource belongs to (read, and the agent
 *   actions hire / file approval, whose handlers then apply the role and mode rules).
 * - operator: operators only (create companies and connectors, decide approvals, mint keys, wake
 *   agents, remove agents).
 * Operators are further held to the route's role and, where the route names a company, to the
 * companies they are limited to; an operator route that names no company needs an operator of
 * every company.
 */
export type Access = "public" | "authenticated" | "company" | "operator";

interface Guarded {
  method: string;
  access: Access;
  role?: OperatorRole;
}

/** The role a route needs of an operator when it does not say: reading needs a viewer, writing an operator. */
export function neededRole(spec: Pick<Guarded, "method" | "role">): OperatorRole {
  return spec.role ?? (spec.method === "get" ? "viewer" : "operator");
}

const ROLE_WORDS: Record<OperatorRole, string> = {
  viewer: "a viewer or above",
  operator: "an operator or owner",
  owner: "an owner",
};

/** Before the route's resource is read: the caller's kind and (for operators) role. */
export function authorizeCaller(spec: Guarded, principal: Caller): void {
  if (spec.access === "public") return;
  if (principal.kind === "anonymous") throw forbidden("this route needs a token");
  if (spec.access === "operator" && principal.kind !== "operator")
    throw forbidden("only an operator may do this; agent tokens cannot");
  if (principal.kind !== "operator") return;
  const need = neededRole(spec);
  if (ROLE_RANK[principal.role] < ROLE_RANK[need])
    throw forbidden(`${principal.name} is a ${principal.role}; this needs ${ROLE_WORDS[need]}`);
}

/** Once the resource is known: the company it belongs to (undefined: the route names none). */
export function authorizeCompany(spec: Guarded, principal: Caller, companyId: string | undefined): void {
  if (spec.access === "public") return;
  if (principal.kind === "anonymous") throw forbidden("this route needs a token");
  if (principal.kind === "agent") {
    if (spec.access === "company" && companyId === undefined)
      throw forbidden("this route has no company scope");
    if (companyId !== undefined && principal.companyId !== companyId)
      throw forbidden("this agent token belongs to another company");
    return;
  }
  // Routes that name no company and only read (the company list, who you are) narrow what they answer.
  if (companyId === undefined && spec.access === "authenticated") return;
  if (!operatorMay(principal, neededRole(spec), companyId))
    throw forbidden(
      companyId === undefined
        ? `${principal.name} is limited to some companies; this needs an operator of every company`
        : `${principal.name} may not act on company ${companyId}: limited to ${principal.companyIds?.join(", ")}`,
    );
}
