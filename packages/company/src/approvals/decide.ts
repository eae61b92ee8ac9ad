// The operator's decision on a pending approval (pending → approved / rejected / revision_requested):
// exactly one of several concurrent decisions wins; an approved hire is made in the decision's
// transaction; the decision moves the CEO's mode and wakes the agent that filed it.
import { ConflictStateError, NotFoundError, UserInputError } from "@cadre/core";
import { type ApprovalStatus, type CeoMode, Text } from "@cadre/model";
import type { ApprovalRow, Store } from "@cadre/store";
import { Type } from "typebox";
import { refreshReadiness } from "../connectors/readiness.js";
import { type ProbeBook, sharedProbes } from "../connectors/probe-cache.js";
import { checkInput } from "../input.js";
import { loadCompanySummary, type ModeView, modeAfter, recordModeChange } from "../state.js";
import { hireFromApproval, hireInputOf } from "../team/hire-approval.js";
import { requestWakes } from "../work/requests.js";

export const DecisionNote = Text({
  maxLength: 2000,
  multiline: true,
  description: "The operator's note; the CEO reads it on its next wake.",
});

export type Decision = "approve" | "reject" | "revise";

const DECISION_STATUS: Record<Decision, Exclude<ApprovalStatus, "pending">> = {
  approve: "approved",
  reject: "rejected",
  revise: "revision_requested",
};

export interface DecisionResult {
  approval: ApprovalRow;
  modeBefore: CeoMode;
  modeAfter: CeoMode;
  /** The agent an approved hire_agent approval created. */
  hired?: string;
}

export interface DecisionOptions {
  /** Connector readiness of an approved hire is computed against this environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where that readiness reads its probes (default the process's cache); refreshed before the decision. */
  probes?: ProbeBook;
}

/**
 * Before an approved hire is checked inside the decision's transaction (which reads readiness from
 * the probes' outcomes, never probing there): the hire's connector's stale probes run now, outside
 * it — a fresh `cadre approvals approve` process, or a server whose background refresh has not yet
 * reached the company, has never measured them, and an unmeasured probe counts as not ready.
 */
async function refreshHireReadiness(store: Store, approvalId: string, options: DecisionOptions) {
  const approval = await store.getApproval(approvalId);
  if (approval?.type !== "hire_agent" || approval.status !== "pending") return;
  const input = hireInputOf(approval.payload);
  if (!input.ok) return; // refused, with its reason, inside the transaction
  const connectors = (await store.listConnectors(approval.companyId)).filter(
    (c) => c.id === input.value.connectorId,
  );
  await refreshReadiness(connectors, options.env ?? process.env, options.probes ?? sharedProbes);
}

/** The operator decides a pending approval; exactly one of several concurrent decisions wins. */
export async function decideApproval(
  store: Store,
  approvalId: string,
  decision: Decision,
  note: string | null,
  actor = "operator",
  options: DecisionOptions = {},
): Promise<DecisionResult> {
  if (!(decision in DECISION_STATUS))
    throw new UserInputError(`decision must be one of: approve, reject, revise (got "${decision}")`);
  const cleanNote =
    note === null || note === ""
      ? null
      : checkInput("decision", Type.Object({ note: DecisionNote }), { note }).note;
  if (decision === "approve") await refreshHireReadiness(store, approvalId, options);
  return store.transaction(async (tx) => {
    const existing = await tx.getApproval(approvalId);
    if (!existing) throw new NotFoundError(`approval ${approvalId} not found`);
    const before = await loadCompanySummary(tx, existing.companyId);
    const decided = await tx.decideApproval(approvalId, DECISION_STATUS[decision], cleanNote, actor);
    if (!decided)
      throw new ConflictStateError(
        `approval ${approvalId} was already decided (${(await tx.getApproval(approvalId))?.status}); only a pending approval can be decided`,
      );
    // An approved hire is made now, in this transaction, from its recorded input checked again;
    // if it no longer passes, the approval is refused and nothing is written.
    const hired =
      decided.type === "hire_agent" && decided.status === "approved"
        ? await hireFromApproval(tx, decided, options)
        : undefined;
    const decidedEvent = {
      companyId: decided.companyId,
      agentId: null,
      runId: null,
      type: "approval.decided",
      data: { approvalId, status: decided.status, note: cleanNote },
    } as const;
    // A hire made above recorded its own activity and mode change; otherwise the decision may move
    // the mode, known without reading it back, recorded with the decision in one batch.
    let after: ModeView;
    if (hired) {
      await tx.insertActivities([decidedEvent]);
      after = await loadCompanySummary(tx, decided.companyId);
    } else {
      after = await recordModeChange(tx, before, null, modeAfter(before, { approval: decided }), [
        decidedEvent,
      ]);
    }
    // The decision is work for the agent that filed it (the CEO when the operator filed it): OP-1.
    await requestWakes(
      tx,
      decided.companyId,
      [
        {
          agentId: decided.filedByAgentId ?? after.ceo.id,
          trigger: "approval_decided",
          taskId: null,
          approvalId: decided.id,
          cause: `${actor === "operator" ? "the operator" : `operator ${actor}`} ${decided.status === "approved" ? "approved" : decided.status === "rejected" ? "rejected" : "sent back for revision"} "${decided.title}"`,
        },
      ],
      actor,
      null,
    );
    return {
      approval: decided,
      modeBefore: before.mode,
      modeAfter: after.mode,
      ...(hired && "agentId" in hired ? { hired: hired.agentId } : {}),
    };
  });
}
