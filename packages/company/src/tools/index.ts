import type { ToolDefinition } from "@cadre/core";
import type { Store } from "@cadre/store";
import type { Actor } from "./actor.js";
import { fileApprovalTool } from "./file-approval.js";
import { hireAgentTool } from "./hire-agent.js";
import { type CompanyToolName } from "../modes.js";
import { assignTaskTool, createTaskTool, listMyTasksTool, updateTaskTool } from "./task-tools.js";

export * from "./actor.js";
export * from "./validate.js";
export * from "./file-approval.js";
export * from "./hire-agent.js";
export * from "./task-tools.js";
export { type ToolCallRef } from "./once.js";

const FACTORIES: Readonly<Record<CompanyToolName, (store: Store, actor: Actor) => ToolDefinition>> = {
  hire_agent: hireAgentTool,
  file_approval: fileApprovalTool,
  create_task: createTaskTool,
  assign_task: assignTaskTool,
  update_task: updateTaskTool,
  list_my_tasks: listMyTasksTool,
};

/**
 * The company tools named (default: the CEO's hiring and filing tools), in the order given, which
 * is fixed per role and mode (MC-3: the tool list never changes within a session; see offeredTools).
 */
export function companyTools(
  store: Store,
  actor: Actor,
  names: readonly CompanyToolName[] = ["hire_agent", "file_approval"],
): ToolDefinition[] {
  return names.map((name) => FACTORIES[name](store, actor));
}
