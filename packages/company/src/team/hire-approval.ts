// A hire filed for the operator's approval, where the company requires it, and
// the hire its approval makes: the filed input is a hire_agent input, checked as a hire again
// inside the decision's transaction.
import { randomUUID } from "node:crypto";
import { UserInputError } from "@cadre/core";
import { describeProblems, nameKey, parse } from "@cadre/model";
import type { ApprovalRow, StoreQueries } from "@cadre/store";
import type { ActionResult, Actor } from "../actions/actor.js";
import type { ProbeBook } from "../connectors/probe-cache.js";
import { loadCompanySummary, type ModeView } from "../state.js";
import {
  checkHire,
  type HireAgentInput,
  type HireAgentResult,
  hireAgentSchema,
  insertHire,
  refuseHire,
} from "./hire-rules.js";

/** The approval a hire files where the company requires approval for hires. */
export async function fileHireApproval(
  tx: StoreQueries,
  state: ModeView,
  actor: Pick<Actor, "agentId" | "via" | "companyId" | "runId">,
  input: HireAgentInput,
): Promise<ActionResult<Extract<HireAgentResult, { approvalId: string }>>> {
  const key = nameKey(input.name);
  for (const pending of await tx.listApprovals(state.company.id, { type: "hire_agent", status: "pending" })) {
    const filed = hireInputOf(pending.payload);
    if (filed.ok && nameKey(filed.value.name) === key)
      return refuseHire(
        "name",
        `a hire of "${filed.value.name}" already waits for the operator's approval (${pending.id})`,
      );
  }
  const row = await tx.insertApproval(
    {
      id: `apr_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
      companyId: state.company.id,
      type: "hire_agent",
      title: `Hire ${input.name} (${input.role})`.slice(0, 200),
      payload: JSON.stringify(input, null, 2),
      filedByAgentId: actor.agentId,
      via: actor.via,
    },
    actor.agentId ?? "operator",
  );
  await tx.insertActivity({
    companyId: state.company.id,
    agentId: actor.agentId,
    runId: actor.runId,
    type: "approval.filed",
    data: { approvalId: row.id, type: row.type, title: row.title, via: row.via },
  });
  return {
    ok: true,
    value: {
      approvalId: row.id,
      status: "pending",
      hired: false,
      name: input.name,
      role: input.role,
      note: "This company requires the operator's approval for hires: the hire was filed for approval and nobody was hired yet. The agent is created when the operator approves it.",
    },
  };
}

/** A filed hire approval's payload, read back as a hire_agent input (and checked as one). */
export function hireInputOf(payload: string): ReturnType<typeof parse<typeof hireAgentSchema>> {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return {
      ok: false,
      problems: {
        payload: "is not a hire_agent input (JSON with name, role, description, connectorId, model)",
      },
    };
  }
  return parse(hireAgentSchema, raw);
}

/**
 * Approving a filed hire creates exactly that agent, inside the decision's transaction: its recorded
 * input is read back and checked again as a hire now (connector ready, model enabled, name free,
 * team size); anything that no longer holds refuses the approval, writing nothing.
 */
export async function hireFromApproval(
  tx: StoreQueries,
  approval: ApprovalRow,
  readinessOf: { env?: NodeJS.ProcessEnv; probes?: ProbeBook } = {},
): Promise<HireAgentResult> {
  const { env, probes } = readinessOf;
  const input = hireInputOf(approval.payload);
  if (!input.ok)
    throw new UserInputError(
      `approval ${approval.id} cannot be approved: its payload is not a valid hire (${describeProblems(input.problems)}); nothing was written. Reject it instead.`,
      input.problems,
    );
  const state = await loadCompanySummary(tx, approval.companyId, {
    agentId: approval.filedByAgentId,
    name: input.value.name,
  });
  const checked = await checkHire(
    tx,
    state,
    {
      agentId: approval.filedByAgentId,
      via: approval.via,
      companyId: approval.companyId,
      ...(env ? { env } : {}),
      ...(probes ? { probes } : {}),
    },
    input.value,
    { mode: false },
  );
  if (!checked.ok)
    throw new UserInputError(
      `approval ${approval.id} cannot be approved: the hire no longer passes its checks — ${checked.message.replace(/^hire_agent was not run, nothing was written\. /, "")} Nothing was written; reject it, or fix the company and approve again.`,
      checked.fields,
    );
  return insertHire(tx, state, checked.value, {
    runId: null,
    hiredBy: approval.filedByAgentId,
    approvalId: approval.id,
    pin: { connectors: state.connectors, env, probes },
  });
}
