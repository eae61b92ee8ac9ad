// A run code stopped ends on code's reason, not the harness's: before its one terminal a reason
// event says why (a drifted model refused, a budget or a run cap reached), and the terminal is
// rewritten failed with that reason. A call the budget refused is no failure to classify either.
import type { AgentEvent } from "@cadre/core";
import type { RunBudget } from "../budgets/run-budget.js";
import type { DriftWatch } from "../model-drift.js";

/** The event as the run records it; reason events go out first through `say`. */
export function endingOf(
  raw: AgentEvent,
  stops: { budget: RunBudget; drift: DriftWatch },
  say: (event: AgentEvent) => void,
): AgentEvent {
  const { budget, drift } = stops;
  let event = raw;
  if (event.type === "terminal" && !budget.stop && drift.stop) {
    say({ type: "error", message: drift.stop.message, code: drift.stop.reason });
    event = { type: "terminal", status: "failed", reason: `${drift.stop.reason}: ${drift.stop.message}` };
  }
  if (event.type === "terminal" && budget.stop) {
    say({ type: "error", message: budget.stop.message, code: budget.stop.reason });
    event = { type: "terminal", status: "failed", reason: `${budget.stop.reason}: ${budget.stop.message}` };
  }
  // The recovery rules' verdict on a refused call ("not an explicit context-overflow error") would
  // mislead; the budget's reason is the truth.
  if (event.type === "recovery" && event.action !== "replay" && budget.stop)
    event = {
      ...event,
      reason: `the ${budget.stop.reason === "budget" ? "budget" : "run's cap"} stopped the run before this call; nothing to replay`,
    };
  return event;
}
