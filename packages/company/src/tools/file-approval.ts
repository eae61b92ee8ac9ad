// file_approval (C4-2): files an approval as a tool instead of a POST to the approvals endpoint.
// The operation and its schema live with the approvals (approvals/file.ts).
import { CEO_MODES } from "@cadre/model";
import { fileApproval, fileApprovalSchema, STRATEGY_FILING_MODES } from "../approvals/file.js";
import { defineCompanyTool } from "./entry.js";
import { toolValidator } from "./validate.js";

export const FILE_APPROVAL_DESCRIPTION =
  "File a request for the operator's decision, such as your company strategy. Returns the approval id and its status.";

export const validateFileApprovalInput = toolValidator("file_approval", fileApprovalSchema);

export const fileApprovalTool = defineCompanyTool({
  name: "file_approval",
  label: "File approval",
  description: FILE_APPROVAL_DESCRIPTION,
  schema: fileApprovalSchema,
  run: fileApproval,
  roles: { ceo: { offeredIn: CEO_MODES, usableIn: STRATEGY_FILING_MODES } },
  // A document that lets the CEO file its strategy says which type to file.
  contract: {
    source: "packages/company/src/tools/file-approval.ts",
    documentedWith: ["approve_ceo_strategy"],
  },
  frozenByEval: true,
  summarize: (d) => `approval filed ${d.approvalId} (${d.type}, ${d.status})`,
});
