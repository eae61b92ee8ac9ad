// Hiring (C4-1): the operation behind the hire_agent tool and the legacy HTTP route — once per
// tool call of a run, every rule checked inside its transaction, filed for the operator's approval
// where the company requires it.
import { ConflictError, type Store } from "@cadre/store";
import type { ActionResult, Actor } from "../actions/actor.js";
import { runOnce, type ToolCallRef } from "../actions/once.js";
import { loadCompanySummary } from "../state.js";
import { recordTelemetry } from "../telemetry.js";
import { fileHireApproval } from "./hire-approval.js";
import { agentWorkspace, ensureWorkspace } from "./workspace-lifecycle.js";
import { checkHire, type HireAgentInput, type HireAgentResult, insertHire } from "./hire-rules.js";

/**
 * The handler shared by the tool and the legacy route. Every rule is checked inside the write
 * transaction, so two concurrent hires cannot both pass the name or size checks.
 */
export async function hireAgent(
  store: Store,
  actor: Actor,
  input: HireAgentInput,
  call: ToolCallRef = {},
): Promise<ActionResult<HireAgentResult>> {
  // Once per tool call of a run (MC-10): a repeated call returns the recorded hire, hiring nobody.
  // The store's unique name key is the last word between two concurrent hires of one name: the
  // loser runs once more and reads the winner, so it gets the readable refusal below.
  const { result, replayed } = await retryOnConflict(() => hireOnce(store, actor, input, call));
  // After the commit (no file work inside a transaction): the hire's workspace, ready for its first wake.
  if (result.ok && "agentId" in result.value && actor.dataDir !== undefined) {
    const company = await store.getCompany(actor.companyId);
    if (company)
      ensureWorkspace(
        agentWorkspace(company, { id: result.value.agentId, companyId: actor.companyId }, actor.dataDir),
      );
  }
  // Only after the commit, and once: telemetry never reports a hire rolled back or replayed.
  if (result.ok && !replayed && "agentId" in result.value)
    recordTelemetry("agent.hired", {
      "cadre.company_id": actor.companyId,
      "cadre.agent_id": result.value.agentId,
      "cadre.role": result.value.role,
      "cadre.via": actor.via,
    });
  return result;
}

async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return fn();
  }
}

function hireOnce(store: Store, actor: Actor, input: HireAgentInput, call: ToolCallRef) {
  return runOnce(
    store,
    actor,
    "hire_agent",
    input,
    call,
    async (tx): Promise<ActionResult<HireAgentResult>> => {
      // One statement whatever the team's size: the hirer, the name's holder and the counts.
      const state = await loadCompanySummary(tx, actor.companyId, {
        agentId: actor.agentId,
        name: input.name,
      });
      const checked = await checkHire(tx, state, actor, input);
      if (!checked.ok) return checked;
      // The company decides in code whether a hire needs the operator: then it is filed, not made.
      if (state.company.settings.requireHireApproval && actor.agentId !== null)
        return fileHireApproval(tx, state, actor, input);
      return {
        ok: true,
        value: await insertHire(tx, state, checked.value, {
          runId: actor.runId,
          hiredBy: actor.agentId,
          pin: { connectors: state.connectors, env: actor.env, probes: actor.probes },
        }),
      };
    },
  );
}
