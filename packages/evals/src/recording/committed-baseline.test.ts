// The committed baseline is evidence for G1: it must read cleanly and cover every built-in
// scenario as it is now. A scenario edited without re-recording fails here, naming it.
import { describe, expect, it } from "vitest";
import { TEAM_BUILDING_BASELINE_DIR } from "../data/paths.js";
import { loadScenarios } from "../scenario/load.js";
import { readRecording } from "./read.js";

describe("evals/baselines/team-building", () => {
  it("is the legacy profile on the offline connector, covering every built-in scenario unchanged", async () => {
    const recording = await readRecording(TEAM_BUILDING_BASELINE_DIR);
    expect(recording.manifest).toMatchObject({ profile: "legacy", connector: "offline", break: null });
    expect(recording.manifest.samples).toBeGreaterThanOrEqual(8);
    const recorded = new Map(recording.scenarios.map((s) => [s.scenario.id, s.hash]));
    for (const { scenario, hash } of await loadScenarios()) {
      expect(
        { scenario: scenario.id, hash: recorded.get(scenario.id) ?? "not recorded" },
        "re-record: cadre eval record --profile legacy --samples 8 --out evals/baselines/team-building",
      ).toEqual({ scenario: scenario.id, hash });
    }
  });
});
