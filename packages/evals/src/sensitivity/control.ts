// The false-alarm control of a sensitivity run: the unmutated prompts run again as two independent
// candidates, drawn with seeds the reference did not use, each compared with the reference. A gate
// that fails one of them fails on chance, not on a change, and its detections are not evidence.
// (Comparing the reference with itself, or with a run paired to its seeds, could never fail.)
import { createHash } from "node:crypto";
import { compareRuns } from "../compare/compare.js";
import { GATE_IDS } from "../compare/gates.js";
import type { CompareSettings } from "../compare/settings.js";
import type { EvalReport } from "../report/schema.js";
import type { Recording } from "../recording/types.js";
import type { SuiteResult } from "../runner/run-suite.js";

export interface ControlRun {
  seed: number;
  detected: boolean;
  gate: string | null;
  evidence: string;
}

export interface ControlResult {
  detected: boolean;
  gate: string | null;
  evidence: string;
  runs: ControlRun[];
}

/** The first gate whose verdict failed (what its rules computed, measured or not). */
export function detection(report: EvalReport): { detected: boolean; gate: string | null; evidence: string } {
  const gate = GATE_IDS.find((g) => report.gates[g].verdict === false) ?? null;
  return {
    detected: gate !== null,
    gate,
    evidence: gate ? report.gates[gate].evidence : "every gate's verdict held",
  };
}

/** Two run seeds derived from the reference's, distinct from it and from each other. */
export function controlSeeds(referenceSeed: number): [number, number] {
  const derive = (i: number) =>
    createHash("sha256").update(`cadre-control:${referenceSeed}:${i}`).digest().readUInt32BE(0) >>> 1;
  const a = derive(1) === referenceSeed ? derive(3) : derive(1);
  const b = [derive(2), derive(4)].find((s) => s !== referenceSeed && s !== a) as number;
  return [a, b];
}

export async function falseAlarmControl(
  reference: Recording,
  run: (seed: number) => Promise<SuiteResult>,
  settings: CompareSettings,
): Promise<ControlResult> {
  const runs: ControlRun[] = [];
  for (const seed of controlSeeds(reference.manifest.seed)) {
    const candidate = await run(seed);
    runs.push({ seed, ...detection(compareRuns(reference, candidate, settings)) });
  }
  const alarm = runs.find((r) => r.detected);
  return {
    detected: alarm !== undefined,
    gate: alarm?.gate ?? null,
    evidence: alarm
      ? `unmutated prompts, seed ${alarm.seed}: ${alarm.evidence}`
      : `two unmutated candidates (seeds ${runs.map((r) => r.seed).join(", ")}): every gate's verdict held`,
    runs,
  };
}
