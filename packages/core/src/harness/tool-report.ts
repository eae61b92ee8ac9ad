// The company decides which tools a harness offers: the company tools, plus the built-ins
// the connector's policy allows. At the start of each run the harness says what it offers; this is
// the comparison, and the rule that the list never changes within a session (MC-3).
import type { HarnessToolsReport } from "../types.js";

/** Why `reported` is not the company's decision, in words a user can act on; undefined when they match. */
export function toolListProblem(
  harness: string,
  expected: readonly string[],
  reported: readonly string[],
): string | undefined {
  const missing = expected.filter((t) => !reported.includes(t));
  const extra = reported.filter((t) => !expected.includes(t));
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`it does not offer ${missing.join(", ")}`);
  if (extra.length > 0) parts.push(`it offers ${extra.join(", ")}, which the company did not allow`);
  if (parts.length === 0) return undefined;
  return `${harness} does not offer the tools the company decided: ${parts.join("; and ")} (decided: ${expected.join(", ") || "none"}; offered: ${reported.join(", ") || "none"})`;
}

/** Keeps a session's first report; a later run that reports another list is a mid-session change (MC-3). */
export class ReportedTools {
  #first: string | undefined;

  /** The problem with this run's report, if any, including a change since the session's first run. */
  check(report: Omit<HarnessToolsReport, "problem">, problem: string | undefined): string | undefined {
    if (problem !== undefined) return problem;
    const json = JSON.stringify(report.tools);
    if (this.#first === undefined) {
      this.#first = json;
      return undefined;
    }
    if (json === this.#first) return undefined;
    return `${report.harness} reported a different tool list than at the session's first run (${(JSON.parse(this.#first) as string[]).join(", ")} → ${report.tools.join(", ")}); tools are fixed for a session (MC-3)`;
  }
}
