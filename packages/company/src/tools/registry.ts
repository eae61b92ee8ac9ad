// The registry of company tools: every tool once, in the order a session offers them (MC-3: the
// order is part of the cached prefix and never changes within a session). Adding a tool is its
// entry file (beside these), its operation in its domain folder, a line here and the mode
// documents that describe it; everything else — the offer by role and mode, the mode tables, the
// prompt contract, the eval's schema hashes, the company view, `cadre mcp` — reads this list.
import type { ToolDefinition } from "@cadre/core";
import type { Store } from "@cadre/store";
import type { Actor } from "../actions/actor.js";
import { type CompanyTool, toolDefinition } from "./entry.js";
import { fileApprovalTool } from "./file-approval.js";
import { hireAgentTool } from "./hire-agent.js";
import { replyToOperatorTool } from "./reply-to-operator.js";
import { reviewTaskTool } from "./review-task.js";
import { assignTaskTool, createTaskTool, listMyTasksTool, updateTaskTool } from "./task-tools.js";

export const COMPANY_TOOLS = [
  hireAgentTool,
  fileApprovalTool,
  createTaskTool,
  assignTaskTool,
  updateTaskTool,
  listMyTasksTool,
  replyToOperatorTool,
  reviewTaskTool,
] as const;

export type CompanyToolName = (typeof COMPANY_TOOLS)[number]["name"];

/** The company tools' names, in the order a session offers them. */
export const COMPANY_TOOL_NAMES: readonly CompanyToolName[] = COMPANY_TOOLS.map((t) => t.name);

const BY_NAME: ReadonlyMap<string, CompanyTool> = new Map(
  COMPANY_TOOLS.map((t) => [t.name, t as CompanyTool]),
);

/** The registry entry of a company tool, or undefined for any other name (a harness's own tool). */
export function companyTool(name: string): CompanyTool | undefined {
  return BY_NAME.get(name);
}

export function isCompanyToolName(name: string): name is CompanyToolName {
  return BY_NAME.has(name);
}

/**
 * The company tools named (default: what the CEO is given before the company operates — hiring and
 * filing), bound to the store and the acting agent, in registry order whatever the order asked.
 */
export function companyTools(
  store: Store,
  actor: Actor,
  names: readonly CompanyToolName[] = COMPANY_TOOLS.filter((t) =>
    t.roles.ceo?.offeredIn.includes("team-building"),
  ).map((t) => t.name),
): ToolDefinition[] {
  return COMPANY_TOOLS.filter((t) => names.includes(t.name)).map((t) =>
    toolDefinition(t as CompanyTool, store, actor),
  );
}

/** Each company tool's schema hash, by name (what an evaluation recording keeps). */
export function toolSchemaHashes(tools: readonly CompanyTool[] = COMPANY_TOOLS): Record<string, string> {
  return Object.fromEntries(tools.map((t) => [t.name, t.schemaHash]));
}
