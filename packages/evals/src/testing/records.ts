// Tests only: a sensitivity record that claims everything — every generated mutant killed, on a
// model, with no false alarm — for the facts given. Whether a run may use it is what tests check.
import { CEO_MODES } from "@cadre/model";
import type { CertificateFacts } from "../sensitivity/certificate.js";
import { generateMutants } from "../sensitivity/generate.js";
import { scoreOf, type SensitivityResult } from "../sensitivity/sensitivity.js";

export function perfectRecord(facts: CertificateFacts): SensitivityResult {
  const mutants = generateMutants(facts.seed).map((m) => ({
    id: m.id,
    operator: m.operator,
    description: m.description,
    diff: m.diff,
    scenarios: [...CEO_MODES],
    killedBy: { gate: "G4", scenario: "somewhere", evidence: "claimed" },
  }));
  return {
    kind: "cadre-eval-sensitivity",
    version: 2,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...facts,
    samples: facts.k,
    source: "live",
    measured: true,
    note: "claimed",
    reference: { kind: "baseline", dir: "x", note: "x" },
    control: { detected: false, gate: null, evidence: "held", runs: [] },
    notRun: null,
    mutants,
    ...scoreOf(mutants),
  };
}
