// Where the evaluation data lives: evals/ at the repository root (from packages/evals/src or dist).
import { fileURLToPath } from "node:url";

export const EVALS_DATA_DIR = fileURLToPath(new URL("../../../../evals", import.meta.url));
export const BUILTIN_SCENARIOS_DIR = `${EVALS_DATA_DIR}/scenarios`;
/** The committed team-building baseline: the legacy profile, offline, 8 samples per scenario. */
export const TEAM_BUILDING_BASELINE_DIR = `${EVALS_DATA_DIR}/baselines/team-building`;
