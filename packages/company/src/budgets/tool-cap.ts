// The run's tool-call cap where the company tools are served outside the wake's process (Codex
// starts `cadre mcp` itself): the wake counts the calls Codex reports and stops the run, but only
// after Codex ran the call, so the tool server refuses a call past the cap itself — nothing past
// the cap runs. It counts the calls it served (one server per Codex exec run); the wake's count,
// which also has Codex's own built-in tools, stops the run.
import { textOutcome, type ToolDefinition } from "@cadre/core";
import type { AgentRow, StoreQueries } from "@cadre/store";
import { appliedBudgets } from "./policy.js";

export async function capServedToolCalls(
  store: StoreQueries,
  agent: Pick<AgentRow, "id" | "companyId">,
  tools: readonly ToolDefinition[],
): Promise<ToolDefinition[]> {
  const max = (await appliedBudgets(store, agent)).runCaps.maxToolCalls;
  if (max === null) return [...tools];
  let calls = 0;
  return tools.map((tool) => ({
    ...tool,
    execute: async (input, context) => {
      calls++;
      if (calls > max)
        return textOutcome(
          `Refused: the run reached its cap of ${max} tool calls; ${tool.name} was not run. Raise it with \`cadre budgets set --company ${agent.companyId} --run-tool-calls N\``,
          true,
        );
      return tool.execute(input, context);
    },
  }));
}
