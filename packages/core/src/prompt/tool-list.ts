// The tool list is part of the stable prefix (MC-3): providers serialise tools before the system
// prompt, so adding, removing, reordering or redefining a tool mid-session invalidates the whole
// cached prefix. These helpers fingerprint a list and say precisely what changed.
import { hashText } from "./assemble.js";

/** What a model sees of a tool: the parts every provider serialises into the request. */
export interface ToolShape {
  name: string;
  description: string;
  parameters: unknown;
}

/** The model-visible serialisation of a tool list, in order. Not for the per-event path: once per model call. */
export function toolListJson(tools: readonly ToolShape[]): string {
  return JSON.stringify(
    tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
  );
}

export function toolListHash(tools: readonly ToolShape[]): string {
  return hashText(toolListJson(tools));
}

/** Undefined when the two lists are identical to a model; else a sentence naming the change. */
export function describeToolListChange(
  before: readonly ToolShape[],
  after: readonly ToolShape[],
): string | undefined {
  const names = (list: readonly ToolShape[]) => list.map((t) => t.name);
  const was = names(before);
  const now = names(after);
  const added = now.filter((n) => !was.includes(n));
  const removed = was.filter((n) => !now.includes(n));
  if (added.length > 0 || removed.length > 0) {
    const parts = [
      added.length > 0 ? `adds ${added.join(", ")}` : "",
      removed.length > 0 ? `removes ${removed.join(", ")}` : "",
    ].filter(Boolean);
    return `the new tool list ${parts.join(" and ")}`;
  }
  if (was.join("\u0000") !== now.join("\u0000"))
    return `the new tool list reorders the tools (${was.join(", ")} → ${now.join(", ")})`;
  for (let i = 0; i < before.length; i++) {
    const a = before[i] as ToolShape;
    const b = after[i] as ToolShape;
    if (a === b) continue;
    if (a.description !== b.description) return `the new tool list changes the description of ${a.name}`;
    if (JSON.stringify(a.parameters) !== JSON.stringify(b.parameters))
      return `the new tool list changes the input schema of ${a.name}`;
  }
  return undefined;
}

/** Refusal of a mid-session tool or MCP server change (MC-3). */
export class ToolListFrozenError extends Error {
  readonly code = "tool_list_frozen";
  constructor(sessionId: string, change: string) {
    super(
      `session ${sessionId}: tools and MCP servers are fixed for a session (MC-3), and ${change}. Start a new session to use a different tool list.`,
    );
    this.name = "ToolListFrozenError";
  }
}
