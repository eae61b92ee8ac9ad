// Questions about the tools a request offered, for policies and for tests reading the log.
import type { StandinRequest, ToolOffered } from "./types.js";
import { qualifiedName } from "./usage/tokens.js";

/** Names of the tools the model could call (loaded ones), namespaced tools as `NAMESPACE__NAME`. */
export function toolNames(request: Pick<StandinRequest, "tools">): string[] {
  return request.tools.filter((t) => !t.deferred).map(qualifiedName);
}

/** Names of the tools offered only as deferred (behind a tool search, not loaded). */
export function deferredToolNames(request: Pick<StandinRequest, "tools">): string[] {
  return request.tools.filter((t) => t.deferred).map(qualifiedName);
}

/**
 * The loaded tool whose name ends with `suffix` (`hire_agent` finds `mcp__cadre__hire_agent`,
 * `cadre__hire_agent` and `hire_agent`); vendor built-ins never match.
 */
export function findTool(request: Pick<StandinRequest, "tools">, suffix: string): ToolOffered | undefined {
  return request.tools.find((t) => !t.deferred && !t.builtin && qualifiedName(t).endsWith(suffix));
}

/** Like findTool, among the deferred tools only (to say why a tool cannot be called). */
export function findDeferredTool(
  request: Pick<StandinRequest, "tools">,
  suffix: string,
): ToolOffered | undefined {
  return request.tools.find((t) => t.deferred && qualifiedName(t).endsWith(suffix));
}

export { qualifiedName };
