// For the stage tests: a new company's CEO wake planned, claimed and begun, with no session — the
// tests feed its events by hand to the stage they are about.
import type { AgentEvent } from "@cadre/core";
import type { Store } from "@cadre/store";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { beginRun } from "./begin.js";
import { claimWake } from "./claim.js";
import { planWake } from "./plan.js";

export async function claimedRun(store: Store, shown: AgentEvent[]) {
  const c = await createCompany(store, { name: "Acme", goal: "Robots for warehouses." });
  const ceo = (await loadCompanyState(store, c.id)).ceo;
  const options = { store, agentId: ceo.id, env: {}, onEvent: (e: AgentEvent) => shown.push(e) };
  const plan = await planWake(options);
  const claim = (await claimWake(plan, options, false))!;
  return { ...(await beginRun(options, plan, claim)), options, plan };
}
