// Whether a candidate run's behaviour gates count as measured (OP-4): never on scripted answers
// (the offline model, any stand-in), whatever a record says; on a model, only with a sensitivity
// certificate that is this run's own — same connector, model, prompts, scenarios, k, seed and code —
// and that shows the gates see prompt changes. Otherwise the note says why, in words.
import { gateSourceOf, type Measurement, notMeasuredNote, scriptedReason } from "../compare/gates.js";
import type { Trace } from "../trace/types.js";
import { type CertificateFacts, certificateMismatches } from "./certificate.js";
import {
  insensitivity,
  MIN_MUTANTS,
  MIN_OPERATORS,
  MIN_SCORE,
  type ReadRecord,
  scoreOf,
} from "./sensitivity.js";

export function measurementOf(
  traces: Trace[],
  facts: CertificateFacts,
  read: ReadRecord,
  file = "the sensitivity record",
): Measurement {
  const source = gateSourceOf(traces);
  const scripted = scriptedReason(traces);
  if (source === "scripted" || scripted !== null)
    return {
      source: "scripted",
      behaviourMeasured: false,
      note: notMeasuredNote(scripted ?? "no model answered"),
    };
  const how = `cadre eval sensitivity --connector ${facts.connectorKind}`;
  const not = (why: string): Measurement => ({
    source,
    behaviourMeasured: false,
    note: `behaviour not measured: ${why}`,
  });
  if (read.state === "none") return not(`connector ${facts.connector} has no sensitivity record (${how})`);
  if (read.state === "outdated")
    return not(`${file} is from an older Cadre and does not say what it measured; measure again (${how})`);
  const mismatches = certificateMismatches(read.record, facts);
  if (mismatches.length > 0)
    return not(`${file} does not belong to this run: ${mismatches.join("; ")} (${how} for this one)`);
  const why = insensitivity(read.record);
  if (why !== null)
    return not(
      `the sensitivity of ${facts.connector} is not enough: ${why} (≥${MIN_SCORE * 100}% of ≥${MIN_MUTANTS} generated mutants from ≥${MIN_OPERATORS} operators)`,
    );
  const f = scoreOf(read.record.mutants);
  return {
    source,
    behaviourMeasured: true,
    note: `behaviour measured on ${source} samples; its gates killed ${f.killed}/${f.total - f.equivalent} generated mutants on this connector, model, prompts, scenarios and code (${read.record.createdAt})`,
  };
}
