// What a scenario's row may claim, once the run says whether behaviour was measured: PASS or FAIL
// only when it was; otherwise "plumbing ok" (nothing in the plumbing failed) or a plumbing FAIL.
// A pass computed from fewer samples than pass^k's k is "incomplete", not a pass.
import type { GateCell, GateId } from "../report/schema.js";
import type { ScenarioComparison } from "./scenario.js";
import type { CompareSettings } from "./settings.js";

export function judgeScenario(
  c: ScenarioComparison,
  behaviourMeasured: boolean,
  cells: Record<GateId, GateCell> | undefined,
  settings: CompareSettings,
): ScenarioComparison {
  const plumbingFailed =
    cells?.G1.pass === false || cells?.G2.pass === false || c.params.valid < c.params.total;
  if (!behaviourMeasured) {
    const result = plumbingFailed ? "fail" : c.n === 0 ? "not measured" : "plumbing ok";
    return { ...c, measured: false, result, passed: plumbingFailed ? false : null };
  }
  if (!c.verdict || plumbingFailed) return { ...c, measured: true, result: "fail", passed: false };
  if (c.n < settings.k) return { ...c, measured: true, result: "incomplete", passed: null };
  return { ...c, measured: true, result: "pass", passed: true };
}
