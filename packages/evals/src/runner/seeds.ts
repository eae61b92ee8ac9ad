// Seeds: sample i of scenario s gets a seed derived from the run's seed, so a run is reproducible
// from one number and every sample still differs. 32 bits, what the offline model's PRNG takes.
import { createHash, randomInt } from "node:crypto";

export function sampleSeed(runSeed: number, scenarioId: string, sample: number): number {
  return createHash("sha256").update(`${runSeed}:${scenarioId}:${sample}`).digest().readUInt32BE(0);
}

/** A fresh run seed when none is given; reported so the run can be repeated. */
export function freshRunSeed(): number {
  return randomInt(1, 2 ** 31);
}
