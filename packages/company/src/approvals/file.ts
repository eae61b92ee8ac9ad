// Filing an approval (C4-2): the operation behind the file_approval tool and the legacy approvals
// route. The approval lifecycle itself (pending → approved / rejected / revision_requested) is
// unchanged by the tool.
import { randomUUID } from "node:crypto";
import {
  APPROVAL_TYPES,
  type ApprovalType,
  type CeoMode,
  describeProblems,
  OneOf,
  type Static,
  Text,
} from "@cadre/model";
import { Type } from "typebox";
import type { ApprovalRow, Store } from "@cadre/store";
import type { ActionResult, Actor } from "../actions/actor.js";
import { runOnce, type ToolCallRef } from "../actions/once.js";
import { refusalSentence } from "../actions/refusal.js";
import { loadCompanySummary, modeAfter, recordModeChange } from "../state.js";
import { recordTelemetry } from "../telemetry.js";
import { fileHireApproval, hireInputOf } from "../team/hire-approval.js";
import { checkHire } from "../team/hire-rules.js";

/** The CEO's modes in which a strategy can be filed (C4-4): once a team exists, until one is approved. */
export const STRATEGY_FILING_MODES = ["strategy-drafting", "revising"] as const satisfies readonly CeoMode[];

/** The file_approval input (C4-2): one schema for the model-facing tool, the legacy route and validation. */
export const fileApprovalSchema = Type.Object(
  {
    type: OneOf(APPROVAL_TYPES, {
      description:
        "approve_ceo_strategy for your strategy; hire_agent only where the company requires approval for hires.",
    }),
    title: Text({ maxLength: 200, description: "A short title for the operator's inbox." }),
    payload: Text({
      maxLength: 20_000,
      multiline: true,
      description: "The strategy or plan, in plain text or markdown.",
    }),
  },
  { additionalProperties: false },
);
export type FileApprovalInput = Static<typeof fileApprovalSchema>;

export interface FileApprovalResult {
  approvalId: string;
  type: ApprovalType;
  status: ApprovalRow["status"];
}

function refuse(field: string, why: string): ActionResult<never> {
  return {
    ok: false,
    message: `file_approval was not run, nothing was written. ${refusalSentence(field, why)}.`,
    fields: { [field]: why },
  };
}

export async function fileApproval(
  store: Store,
  actor: Actor,
  input: FileApprovalInput,
  call: ToolCallRef = {},
): Promise<ActionResult<FileApprovalResult>> {
  // Once per tool call of a run (MC-10): a repeated call returns the recorded approval, filing none.
  const { result, replayed } = await runOnce(
    store,
    actor,
    "file_approval",
    input,
    call,
    async (tx): Promise<ActionResult<FileApprovalResult>> => {
      const state = await loadCompanySummary(tx, actor.companyId, { agentId: actor.agentId });
      const filer = state.agent;
      if (actor.agentId !== null && !filer)
        return refuse("agent", `${actor.agentId} is not an active agent of this company`);
      if (input.type === "approve_ceo_strategy") {
        if (filer && !filer.isCeo) return refuse("type", "only the CEO files the company strategy");
        if (!(STRATEGY_FILING_MODES as readonly CeoMode[]).includes(state.mode)) {
          return refuse(
            "mode",
            `a strategy cannot be filed in the ${state.mode} phase (${state.modeReason}); it can be filed in: ${STRATEGY_FILING_MODES.join(", ")}`,
          );
        }
      } else if (!state.company.settings.requireHireApproval) {
        return refuse("type", "this company does not require approval for hires; hire directly instead");
      } else {
        // A hire filed for approval is a hire_agent input, checked as a hire now: approving it
        // creates exactly that agent (hireFromApproval), never a blank one.
        const hire = hireInputOf(input.payload);
        if (!hire.ok)
          return refuse(
            "payload",
            `of a hire_agent approval must be the hire_agent input as JSON (name, role, description, connectorId, model, department): ${describeProblems(hire.problems)}`,
          );
        const checked = await checkHire(tx, state, actor, hire.value);
        if (!checked.ok)
          return { ...checked, message: checked.message.replace(/^hire_agent/, "file_approval") };
        const filed = await fileHireApproval(tx, state, actor, hire.value);
        if (!filed.ok) return filed;
        return {
          ok: true,
          value: { approvalId: filed.value.approvalId, type: "hire_agent", status: "pending" },
        };
      }
      const row = await tx.insertApproval(
        {
          id: `apr_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
          companyId: actor.companyId,
          type: input.type,
          title: input.title,
          payload: input.payload,
          filedByAgentId: filer?.id ?? null,
          via: actor.via,
        },
        filer?.id ?? "operator",
      );
      await recordModeChange(tx, state, actor.runId, modeAfter(state, { approval: row }), [
        {
          companyId: actor.companyId,
          agentId: filer?.id ?? null,
          runId: actor.runId,
          type: "approval.filed",
          data: { approvalId: row.id, type: row.type, title: row.title, via: row.via },
        },
      ]);
      return { ok: true, value: { approvalId: row.id, type: row.type, status: row.status } };
    },
  );
  if (result.ok && !replayed)
    recordTelemetry("approval.filed", {
      "cadre.company_id": actor.companyId,
      "cadre.approval_id": result.value.approvalId,
      "cadre.type": result.value.type,
      "cadre.via": actor.via,
    });
  return result;
}
