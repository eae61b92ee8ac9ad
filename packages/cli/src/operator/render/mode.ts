// The CEO's mode as `cadre company show` prints it, for both adapters: the mode and why, the
// company tools that can succeed in it and those it is given that refuse, and the operator's next
// step — all from the one mode decision (the company view's `toolsInMode` / `toolsOffered` /
// `operatorActions`, from modeOffer).
import type { OperatorAction } from "@cadre/company";

export interface ModeLinesInput {
  mode: string;
  reason: string;
  tools: readonly string[];
  /** The tools the CEO is given in this mode; those not in `tools` refuse. */
  offered: readonly string[];
  operatorActions: readonly OperatorAction[];
  ceoAgentId: string;
  pendingStrategyId: string | undefined;
}

export function modeLines(m: ModeLinesInput): string {
  const refused = m.offered.filter((t) => !m.tools.includes(t));
  let out = `  CEO mode: ${m.mode} — ${m.reason}\n`;
  out += `  tools in this mode: ${m.tools.join(", ") || "none"}${refused.length > 0 ? ` (refused in this mode: ${refused.join(", ")})` : ""}\n`;
  for (const action of m.operatorActions) {
    if (action === "start_team_building")
      out += `  next: start team building — cadre wake ${m.ceoAgentId} --trigger start_team_building\n`;
    if (action === "decide_strategy")
      out += `  next: decide the strategy — cadre approvals approve|reject|revise ${m.pendingStrategyId ?? "ID"} --note "…"\n`;
  }
  return out;
}
