// The thresholds of the comparison, stated once: reports print them beside every verdict.
import type { TrajectoryMode } from "./trajectory.js";

export interface CompareSettings {
  /** pass^k is reported for this k (clamped to the number of samples). */
  k: number;
  /** A scenario passes when pass^k reaches this. */
  minPassK: number;
  /** Hire count within ±this of the baseline median (C4-8: ±1). */
  hireTolerance: number;
  /** A sample's team matches when every function it hired was hired by the baseline here, or its Jaccard with some baseline team reaches this. */
  functionJaccard: number;
  /** Share of hires made through hire_agent that G3 requires, per state and overall (C4-8: 95%). */
  minToolCoverage: number;
  /** States in which the CEO must use the tool at that share (C4-8: ≥10). */
  minToolStates: number;
  /** Initial cue length limit in o200k tokens (C4-3: ≤80). */
  maxCueTokens: number;
  /** Cache hit rate may fall below the baseline's by at most this (absolute, 0..1). */
  cacheTolerance: number;
  /** Scenarios a baseline must hold for G1 (C4-8: ≥10 states). */
  minScenarios: number;
  /** When set, each sample's trajectory must match a baseline sample's in this mode. */
  trajectory: TrajectoryMode | null;
}

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
