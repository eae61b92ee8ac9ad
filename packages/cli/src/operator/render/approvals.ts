// `cadre approvals list|show|approve|reject|revise`, rendered once for both adapters.
import type { ApprovalHistoryView, ApprovalView, DecisionView } from "@cadre/server/views";
import { table } from "./table.js";

export function approvalsText(approvals: readonly ApprovalView[]): string {
  if (approvals.length === 0) return "no approvals\n";
  return table(
    approvals.map((a) => [
      a.id,
      a.type,
      a.status,
      `"${a.title}" (via ${a.via})${a.decisionNote ? ` note: ${a.decisionNote}` : ""}`,
    ]),
  );
}

const who = (actor: string) => (actor === "operator" ? "the operator" : actor);

/** The approval as the operator reads it before (or after) deciding: its text in full, then the decision. */
export function approvalText(a: ApprovalHistoryView): string {
  const filed = a.history.find((e) => e.fromStatus === null);
  const decided = a.history.find((e) => e.fromStatus !== null);
  const lines = [
    `${a.id}  ${a.type} — ${a.status}`,
    `title     ${a.title}`,
    `filed     ${a.createdAt}${filed ? ` by ${who(filed.actor)}` : ""} (via ${a.via})`,
    decided
      ? `decided   ${decided.toStatus} ${decided.at} by ${who(decided.actor)}${decided.note ? `\nnote      ${decided.note}` : ""}`
      : "decided   not yet: pending (cadre approvals approve|reject|revise ID --note TEXT)",
    "",
    ...a.payload.split("\n").map((line) => `  ${line}`.trimEnd()),
  ];
  return lines.map((l) => `${l}\n`).join("");
}

export function decisionText(d: DecisionView): string {
  return `${d.approval.id} is now ${d.approval.status}${d.approval.decisionNote ? ` (note: ${d.approval.decisionNote})` : ""}\nCEO mode: ${d.modeBefore} → ${d.modeAfter}\n`;
}
