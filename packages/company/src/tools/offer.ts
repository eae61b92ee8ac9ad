// What a session is given and what can succeed, by role and CEO mode — read from each tool's
// registry entry, so no surface restates a table: the harness's tool list (offeredTools), the
// handlers' governance (each operation's modes), the mode tables the prompt contract checks, the
// company view and `cadre mcp` (modeOffer, usableTools).
import { CEO_MODES, type CeoMode } from "@cadre/model";
import { type OperatorAction, operatorActionsIn } from "../modes.js";
import type { ToolRole } from "./entry.js";
import { COMPANY_TOOLS, type CompanyToolName } from "./registry.js";

const roleOf = (agent: { isCeo: boolean }): ToolRole => (agent.isCeo ? "ceo" : "member");

/**
 * The company tools a session offers, by role and mode, in registry order (MC-3: the list never
 * changes within a session). The CEO keeps hire_agent and file_approval in every mode (their
 * handlers say when a mode refuses them) and gets the task tools in the operating company.
 */
export function offeredTools(agent: { isCeo: boolean }, mode: CeoMode): CompanyToolName[] {
  const role = roleOf(agent);
  return COMPANY_TOOLS.filter((t) => t.roles[role]?.offeredIn.includes(mode)).map((t) => t.name);
}

/** The company tools whose calls can succeed for this role in this mode, in registry order. */
export function usableTools(agent: { isCeo: boolean }, mode: CeoMode): CompanyToolName[] {
  const role = roleOf(agent);
  return COMPANY_TOOLS.filter((t) => t.roles[role]?.usableIn.includes(mode)).map((t) => t.name);
}

/** Which company tools each mode lets the CEO use (the mode documents describe exactly these). */
export const MODE_TOOLS: Readonly<Record<CeoMode, readonly CompanyToolName[]>> = {
  "team-building": usableTools({ isCeo: true }, "team-building"),
  "strategy-drafting": usableTools({ isCeo: true }, "strategy-drafting"),
  "awaiting-approval": usableTools({ isCeo: true }, "awaiting-approval"),
  revising: usableTools({ isCeo: true }, "revising"),
  operating: usableTools({ isCeo: true }, "operating"),
} satisfies Record<CeoMode, readonly CompanyToolName[]>;

export function modeAllows(mode: CeoMode, tool: CompanyToolName): boolean {
  return MODE_TOOLS[mode].includes(tool);
}

export function modesAllowing(tool: CompanyToolName): CeoMode[] {
  return CEO_MODES.filter((m) => modeAllows(m, tool));
}

/**
 * What the CEO's mode offers, on every surface: the company tools the CEO is given and those whose
 * calls can succeed (the handlers enforce it), and the operator's actions that fit the mode. The
 * API's company view, `cadre company show`, `cadre mcp` and the dashboard all read this one
 * function, so no surface offers what the code would refuse.
 */
export interface ModeOffer {
  mode: CeoMode;
  /** Company tools the CEO can use now; the others it is given refuse. */
  tools: readonly CompanyToolName[];
  /** Company tools the CEO's session is given in this mode (fixed per session, MC-3). */
  offered: readonly CompanyToolName[];
  operatorActions: readonly OperatorAction[];
}

export function modeOffer(mode: CeoMode): ModeOffer {
  return {
    mode,
    tools: MODE_TOOLS[mode],
    offered: offeredTools({ isCeo: true }, mode),
    operatorActions: operatorActionsIn(mode),
  };
}
