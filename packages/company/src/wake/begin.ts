// What a claimed run keeps while it runs: its trace (OpenTelemetry, when on: one tree per run from
// its own events), its store (the lease's view, acting as the agent in the audit log), its budget
// (from the budgets the plan read, held the way the connector's driver says), its drift watch and
// its record. A model replaced under the declared id since it was declared (an Ollama pull
// re-pointed the tag) is read from the probes the plan refreshed, before the first call (MC-6).
import type { AgentEvent } from "@cadre/core";
import { actingStore } from "@cadre/store";
import { RunBudget } from "../budgets/run-budget.js";
import { companyPrices } from "../budgets/prices.js";
import { driverOf } from "../connectors/kinds/index.js";
import { modelFingerprintDrift } from "../connectors/readiness.js";
import { DriftWatch } from "../model-drift.js";
import { startRunTrace } from "../tracing/run-trace.js";
import type { Claim } from "./claim.js";
import type { RunContext } from "./context.js";
import type { WakeOptions } from "./options.js";
import type { WakePlan } from "./plan.js";
import { RunRecord } from "./record.js";

export async function beginRun(
  options: WakeOptions,
  plan: WakePlan,
  claim: Claim,
): Promise<{ ctx: RunContext; replaced: AgentEvent | undefined }> {
  const { agent, connector, state } = plan;
  const { runId, started } = claim;
  const run = started.run;
  const trace = startRunTrace({
    runId,
    companyId: agent.companyId,
    agentId: agent.id,
    agentName: agent.name,
    provider: connector.kind,
    model: agent.model,
    trigger: run.trigger,
    taskIds: [...new Set(started.taken.map((r) => r.taskId).filter((t): t is string => t !== null))],
    causes: started.taken.map((r) => r.cause),
    cue: started.cue,
  });
  const view = claim.lease ? claim.lease.view() : options.store;
  const runStore = actingStore(view, { type: "agent", agentId: agent.id, runId });
  // Every model call is reserved against the budgets first and settled with its usage (OP-3).
  const budget = await RunBudget.open(runStore, agent, runId, {
    prices: companyPrices(state.company),
    applied: plan.budgets,
    enforcement: driverOf(connector.kind).budget,
  });
  const drift = new DriftWatch(agent.model, state.company.settings.onModelDrift ?? "warn");
  const record = new RunRecord({
    store: runStore,
    runId,
    companyId: agent.companyId,
    budget,
    onEvent: options.onEvent,
    trace,
  });
  const fingerprint = modelFingerprintDrift(connector, agent.model, plan.env, plan.probes);
  let replaced: AgentEvent | undefined;
  if (fingerprint) {
    replaced = drift.seeFingerprint(fingerprint);
    record.keep(replaced);
    budget.unpriceAll();
  }
  const ctx: RunContext = { options, plan, claim, run, runStore, budget, drift, record, trace, held: {} };
  return { ctx, replaced };
}
