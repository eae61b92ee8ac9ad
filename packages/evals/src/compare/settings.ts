// The thresholds of the comparison, stated once: reports print them beside every verdict.
import { UserInputError } from "@cadre/core";
import type { CompareSettings } from "../report/schema.js";
import { TRAJECTORY_MODES } from "./trajectory.js";

// The thresholds (what each means is described in the report schema).
export type { CompareSettings };

export const DEFAULT_COMPARE_SETTINGS: CompareSettings = {
  k: 3,
  minPassK: 0.5,
  hireTolerance: 1,
  functionJaccard: 0.6,
  minToolCoverage: 0.95,
  minToolStates: 10,
  maxCueTokens: 80,
  cacheTolerance: 0.05,
  minScenarios: 10,
  minBehaviourScenarios: 8,
  modelCallTolerance: 0.5,
  // Every tool a baseline sample calls must be called; harmless extra calls do not fail.
  trajectory: "superset",
};

/** The lowest --min-pass: below it a scenario that fails more often than it passes would pass. */
export const MIN_PASS_FLOOR = 0.5;

/** Refuses thresholds under which a gate could pass what it should catch; says what is allowed. */
export function checkCompareSettings(s: CompareSettings): CompareSettings {
  if (!(s.minPassK >= MIN_PASS_FLOOR && s.minPassK <= 1))
    throw new UserInputError(
      `min-pass must be a number from ${MIN_PASS_FLOOR} to 1 (got ${s.minPassK}): below ${MIN_PASS_FLOOR} a scenario that fails more often than it passes would pass`,
    );
  if (!Number.isInteger(s.k) || s.k < 1)
    throw new UserInputError(`k must be a whole number ≥ 1 (got ${s.k})`);
  if (!(TRAJECTORY_MODES as readonly string[]).includes(s.trajectory))
    throw new UserInputError(
      `trajectory must be one of ${TRAJECTORY_MODES.join(", ")} (got ${JSON.stringify(s.trajectory)})`,
    );
  return s;
}
