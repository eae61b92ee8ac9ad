// What a tool call was, for the operator: a hire, a filed approval (the strategy), a reply to the
// operator, a change to a task, or any other call. Told by the company tool's name (a harness may
// prefix it, e.g. "mcp__cadre__hire_agent") together with what its arguments and result hold, so a
// call that does not have the expected shape falls back to the plain card rather than a wrong one.
import type { RunItem } from "./run-fold.js";
import { taskToolSummary } from "./task-board.js";

type ToolItem = Extract<RunItem, { kind: "tool" }>;

export type ToolCard =
  | {
      kind: "hire";
      name: string;
      role: string;
      description?: string;
      model?: string;
      connectorId?: string;
      /** Set once hired. */
      agentId?: string;
      /** Set when the hire was filed for the operator's approval instead. */
      approvalId?: string;
    }
  | { kind: "approval"; type: string; title: string; payload: string; approvalId?: string; status?: string }
  | { kind: "reply"; text: string; messageId?: string }
  /** A task change (taskId set) or a task list (what it assigned and created). */
  | { kind: "task"; taskId?: string; summary: string; title?: string }
  | { kind: "other" };

/** The company tool's own name: the harness's MCP prefix (mcp__server__) taken off. */
export function baseToolName(name: string): string {
  return name.replace(/^mcp__.+?__/, "");
}

function json(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function toolCard(item: ToolItem): ToolCard {
  const args = json(item.args) ?? {};
  // A failed or refused call did nothing: its result is an error text, not the tool's answer.
  const result = item.state === "done" ? json(item.result) : undefined;
  const name = baseToolName(item.name);
  if (name === "hire_agent" && str(args["name"]) && str(args["role"]))
    return {
      kind: "hire",
      name: str(args["name"])!,
      role: str(args["role"])!,
      ...opt("description", str(args["description"])),
      ...opt("model", str(args["model"])),
      ...opt("connectorId", str(args["connectorId"])),
      ...opt("agentId", str(result?.["agentId"])),
      ...opt("approvalId", str(result?.["approvalId"])),
    };
  if (name === "file_approval" && str(args["payload"]) !== undefined)
    return {
      kind: "approval",
      type: str(args["type"]) ?? "",
      title: str(args["title"]) ?? "",
      payload: str(args["payload"])!,
      ...opt("approvalId", str(result?.["approvalId"])),
      ...opt("status", str(result?.["status"])),
    };
  if (name === "reply_to_operator" && str(args["text"]) !== undefined)
    return { kind: "reply", text: str(args["text"])!, ...opt("messageId", str(result?.["messageId"])) };
  const summary = item.state === "done" ? taskToolSummary(item.result) : undefined;
  const taskId = str(result?.["taskId"]);
  if (summary)
    return { kind: "task", summary, ...opt("taskId", taskId), ...opt("title", str(args["title"])) };
  return { kind: "other" };
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
