// reply_to_operator: the CEO's answer in the company thread with the operator. It
// is given in every mode and succeeds in every mode: writing to the operator decides nothing.
import { CEO_MODES } from "@cadre/model";
import { postMessageSchema, replyToOperator } from "../messages/thread.js";
import { defineCompanyTool } from "./entry.js";

export const REPLY_TO_OPERATOR_DESCRIPTION =
  "Write to the operator in your company's thread: answer what they asked, or report on the work. The operator reads it in the dashboard. It decides nothing and changes nothing else.";

export const replyToOperatorTool = defineCompanyTool({
  name: "reply_to_operator",
  label: "Reply to operator",
  description: REPLY_TO_OPERATOR_DESCRIPTION,
  schema: postMessageSchema,
  run: replyToOperator,
  roles: { ceo: { offeredIn: CEO_MODES, usableIn: CEO_MODES } },
  contract: { source: "packages/company/src/tools/reply-to-operator.ts" },
  // New since the committed evaluation baseline: not frozen against it.
  frozenByEval: false,
  summarize: (d) => `wrote to the operator (message ${d.messageId})`,
});
