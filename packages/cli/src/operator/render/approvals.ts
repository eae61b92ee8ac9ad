// `cadre approvals list|show|approve|reject|revise`, rendered once for both adapters.
import type { AgentView, ApprovalHistoryView, ApprovalView, DecisionView } from "@cadre/server/views";
import type { WaitingReviewView } from "@cadre/company";
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

/** Tasks handed in whose review is the operator's: decisions waiting, like approvals. */
export function reviewsText(reviews: readonly WaitingReviewView[]): string {
  if (reviews.length === 0) return "";
  return `\ntasks waiting for your review (cadre tasks review TASK_ID --accept | --changes TEXT):\n${table(
    reviews.map((r) => [
      r.task.id,
      r.escalated ? `review rounds ran out (${r.changeRounds} of ${r.bound})` : "yours to review",
      `"${r.task.title}"`,
    ]),
  )}`;
}

/** An actor by name: "the operator", or the agent's name and id. */
function namer(agents: readonly AgentView[]) {
  return (actor: string) => {
    if (actor === "operator") return "the operator";
    const a = agents.find((x) => x.id === actor);
    return a ? `${a.name} (${a.id})` : actor;
  };
}

/** The approval as the operator reads it before (or after) deciding: its text in full, then the decision. */
export function approvalText(a: ApprovalHistoryView, agents: readonly AgentView[] = []): string {
  const who = namer(agents);
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

/** The decision, the CEO's mode change, and the next step: the filer's wake it made due. */
export function decisionText(d: DecisionView, agents: readonly AgentView[] = []): string {
  const filer =
    agents.find((a) => a.id === d.approval.filedByAgentId) ??
    agents.find((a) => a.isCeo && a.status === "active");
  const next = filer
    ? `${filer.name} is woken for the decision: its wake is due now. Run it with \`cadre run\` (\`cadre run --until-idle\` runs the work that follows too)\n`
    : "";
  return `${d.approval.id} is now ${d.approval.status}${d.approval.decisionNote ? ` (note: ${d.approval.decisionNote})` : ""}\nCEO mode: ${d.modeBefore} → ${d.modeAfter}\n${next}`;
}
