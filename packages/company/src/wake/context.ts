// What the stages after the claim share: the plan, the claim, the run's store (its lease's view,
// acting as its agent), its budget, drift watch, record and trace, and what the run opened (held
// here so that settling closes whatever was opened, however far opening got).
import type { BaseAgent } from "@cadre/core";
import type { RunRow, Store } from "@cadre/store";
import type { SessionPlan } from "../agent-session.js";
import type { RunBudget } from "../budgets/run-budget.js";
import type { DriftWatch } from "../model-drift.js";
import type { ProfileRun } from "../profiles/types.js";
import type { RunTrace } from "../tracing/run-trace.js";
import type { Claim } from "./claim.js";
import type { WakeOptions } from "./options.js";
import type { WakePlan } from "./plan.js";
import type { RunRecord } from "./record.js";

export interface RunContext {
  options: WakeOptions;
  plan: WakePlan;
  claim: Claim;
  run: RunRow;
  runStore: Store;
  budget: RunBudget;
  drift: DriftWatch;
  record: RunRecord;
  trace: RunTrace;
  held: { profileRun?: ProfileRun; session?: BaseAgent; sessionPlan?: SessionPlan };
}

/** A wake the company refuses to run on a drifted model (settings.onModelDrift: refuse). */
export class DriftRefused extends Error {}
