// Reading a report.json in the browser with the harness's own report schema (TypeBox and
// @cadre/model only): strict, and the error names what is missing or wrong and where. Loaded on
// demand (the eval page imports it when a file is opened), so the validator is not in the first page.
import { readEvalReport } from "@cadre/evals/report-schema";

export type ParsedReport = ReturnType<typeof readEvalReport>;

export function parseEvalReport(text: string): ParsedReport {
  return readEvalReport(text);
}
