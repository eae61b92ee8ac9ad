// The thresholds of the comparison, stated once: reports print them beside every verdict.
import type { CompareSettings } from "../report/schema.js";

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
  trajectory: null,
};
