import type { ToolDefinition } from "@cadre/core";
import type { Store } from "@cadre/store";
import type { Actor } from "./actor.js";
import { fileApprovalTool } from "./file-approval.js";
import { hireAgentTool } from "./hire-agent.js";

export * from "./actor.js";
export * from "./validate.js";
export * from "./file-approval.js";
export * from "./hire-agent.js";
export { type ToolCallRef } from "./once.js";

/** The company tools, in a fixed order (MC-3: the tool list never changes within a session). */
export function companyTools(store: Store, actor: Actor): ToolDefinition[] {
  return [hireAgentTool(store, actor), fileApprovalTool(store, actor)];
}
