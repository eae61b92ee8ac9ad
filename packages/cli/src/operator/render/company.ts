// `cadre company show|create`, rendered once for both adapters.
import { DEFAULT_REVIEW_ROUNDS } from "@cadre/model";
import type { CompanyView } from "@cadre/server/views";
import { connectorLines } from "../../connector-format.js";
import type { CompanyOverview } from "../port.js";
import { modeLines } from "./mode.js";

export function createdCompanyText(company: CompanyView): string {
  return `created company ${company.name} (${company.id})\n`;
}

/** `via`: the server's URL when the overview came over the API. */
export function companyOverviewText(o: CompanyOverview, via?: string): string {
  const { company } = o;
  const lines = [
    `${company.name} (${company.id})${via ? ` — via ${via}` : ""}`,
    `  goal: ${company.goal || "(none)"}`,
    // modeLines ends each of its lines with a newline; the lines here are joined with one.
    modeLines({
      mode: o.ceoMode,
      reason: o.ceoModeReason,
      tools: o.toolsInMode,
      offered: o.toolsOffered,
      operatorActions: o.operatorActions,
      ceoAgentId: o.ceo?.id ?? "CEO_ID",
      pendingStrategyId: o.approvals.findLast(
        (a) => a.type === "approve_ceo_strategy" && a.status === "pending",
      )?.id,
    }).replace(/\n$/, ""),
    `  settings: max team ${company.settings.maxTeamSize}, hire approval ${company.settings.requireHireApproval ? "required" : "not required"}, profile ${company.settings.profile}, acceptance ${company.settings.acceptance === "automatic" ? "automatic" : `by review (up to ${company.settings.reviewRounds ?? DEFAULT_REVIEW_ROUNDS} rounds of changes)`}, workspaces ${company.settings.workspaceRoot ?? "in the data directory"}`,
    "connectors",
    // connectorLines ends each connector with a newline; the lines here are joined with one.
    ...o.connectors.map((c) => connectorLines(c, "  ").replace(/\n$/, "")),
    `team (${o.agents.length} active)`,
    ...o.agents.map(
      (a) =>
        `  ${a.id}  ${a.name} — ${a.role}${a.department ? `, ${a.department}` : ""} on ${a.connectorId}/${a.model} (via ${a.via})`,
    ),
    `approvals (${o.approvals.length})`,
    ...o.approvals.map(
      (a) =>
        `  ${a.id}  ${a.type} "${a.title}" — ${a.status}${a.decisionNote ? ` (note: ${a.decisionNote})` : ""}`,
    ),
  ];
  return lines.map((l) => `${l}\n`).join("");
}
