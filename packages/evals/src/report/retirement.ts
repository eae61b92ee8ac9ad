// Retiring the legacy POST routes takes evidence (C4-6): the eval report that justifies
// it, whose G5 must be measured and passing. A scripted run's G5 is "not measured" and is refused.
import { createHash } from "node:crypto";
import { readEvalReport } from "./schema.js";

export type RetirementEvidence =
  | { ok: true; sha256: string; evidence: string; candidate: string; createdAt: string }
  | { ok: false; reason: string };

export function retirementEvidence(text: string): RetirementEvidence {
  const read = readEvalReport(text);
  if (!read.ok) return { ok: false, reason: `the evidence is not a report this build reads: ${read.error}` };
  const g5 = read.report.gates.G5;
  if (!g5.measured) return { ok: false, reason: `its G5 was not measured (${read.report.measurement.note})` };
  if (g5.pass !== true) return { ok: false, reason: `its G5 does not pass: ${g5.evidence}` };
  const c = read.report.candidate;
  return {
    ok: true,
    sha256: createHash("sha256").update(text).digest("hex"),
    evidence: g5.evidence,
    candidate: `profile ${c.profile} on ${c.connector}, ${c.samples} samples per scenario`,
    createdAt: read.report.createdAt,
  };
}
