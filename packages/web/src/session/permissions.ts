// Who is signed in and what their role lets them do (GET /api/me): the views show only the actions
// the role may take, and say why the others are not there. The server checks every request anyway.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { AnswerOf } from "@cadre/server/client";

export type Me = AnswerOf<"GET /api/me">;

/** Before sign-in, and in views shown outside a session (tests): an owner's rights, as before names. */
const OWNER: Me = {
  kind: "operator",
  name: "operator",
  role: "owner",
  companies: null,
  may: { read: true, act: true, administer: true },
};

export const MeContext = createContext<Me>(OWNER);

export function useMe(): Me {
  return useContext(MeContext);
}

/** Why an action is not offered, in the words the dashboard shows. */
export function notAllowed(me: Me, need: "act" | "administer"): string {
  const who = `${me.name} is ${me.role === "owner" ? "an owner" : `a ${me.role}`}`;
  return need === "act"
    ? `${who}: deciding approvals, waking agents and acting on tasks needs an operator or owner.`
    : `${who}: managing connectors, budgets, keys and operators needs an owner.`;
}

/** The header's line: who is signed in, with which role, for which companies. */
export function signedInAs(me: Me): string {
  const scope = me.companies === null ? "every company" : me.companies.join(", ");
  return `${me.name} · ${me.role} · ${scope}`;
}
