// Opening the run's session: what the agent's last run spent and never booked is booked first
// (a harness that keeps its own record of a lost run), the profile's tools by role and mode are
// wrapped in the run's budget, the session is resumed or started fresh (decided in code,
// agent-session.ts) and handed to the caller before its turn starts.
import { resolveModel, type ToolDefinition } from "@cadre/core";
import { planSession } from "../agent-session.js";
import { companyPrices } from "../budgets/prices.js";
import { connectorModelInfo } from "../connectors/connector-models.js";
import { createSession } from "../session.js";
import { agentWorkspace } from "../team/workspace-lifecycle.js";
import { workspaceOf } from "../team/workspace.js";
import type { RunContext } from "./context.js";
import { bookLostRunUsage } from "./lost-usage.js";

export async function openSession(ctx: RunContext): Promise<readonly ToolDefinition[]> {
  const { options, plan, claim, budget, runStore, held } = ctx;
  const { agent, connector, mode, state } = plan;
  const runId = claim.runId;
  await bookLostRunUsage(runStore, {
    agent,
    session: claim.row,
    env: plan.env,
    before: ctx.run.startedAt,
    prices: companyPrices(state.company),
  });
  held.profileRun = await plan.byProfile.open({
    store: runStore,
    agent,
    runId,
    mode,
    probes: plan.probes,
    ...(options.env ? { env: options.env } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const given = held.profileRun.tools;
  const tools = budget.wrapTools(agent.isCeo && options.toolOffer ? options.toolOffer(mode, given) : given);
  // A declared local model's window comes from its connector (the registry does not know it).
  const model = connectorModelInfo(connector, agent.model) ?? resolveModel(agent.model);
  const sessionPlan = planSession({ row: claim.row, connector, model, built: plan.prompt, tools });
  held.sessionPlan = sessionPlan;
  held.session = await createSession({
    sessionId: runId,
    agent,
    connector,
    systemPrompt: sessionPlan.prompt.systemPrompt,
    segments: sessionPlan.prompt.segments,
    continuation: sessionPlan.continuation,
    tools,
    seed: options.seed ?? `${agent.id}:${runId}`,
    ...(options.script ? { script: options.script } : {}),
    ...(options.faults?.length ? { faults: options.faults } : {}),
    ...(options.env ? { env: options.env } : {}),
    probes: plan.probes,
    ...(options.wrapStreamFn ? { wrapStreamFn: options.wrapStreamFn } : {}),
    ...(options.wrapHarness ? { wrapHarness: options.wrapHarness } : {}),
    guardStreamFn: (inner) => budget.wrapStreamFn(inner),
    redact: plan.redact,
    // Every harness works in the agent's workspace; Codex starts `cadre mcp` on this data dir and run.
    workspace: workspaceOf(agentWorkspace(state.company, agent, options.dataDir)),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.cadreCommand ? { cadreCommand: options.cadreCommand } : {}),
    runId,
  });
  options.onSession?.(held.session);
  return tools;
}
