// `cadre usage`, rendered once for both adapters.
import type { CompanyUsageReport, RunUsageReport } from "@cadre/company";
import { formatUsage } from "../../usage-format.js";

export function companyUsageText(reports: readonly CompanyUsageReport[]): string {
  if (reports.length === 0) return "no companies yet; run `npx cadre demo` first\n";
  return reports
    .map((report) =>
      [
        `${report.name} (${report.companyId})`,
        `  total      ${formatUsage(report.usage)}`,
        ...report.agents.map(
          (a) =>
            `  agent      ${a.name} (${a.agentId}, ${a.model}), ${a.runs} run(s): ${formatUsage(a.usage)}`,
        ),
        ...report.runs.map(
          (r) => `  run        ${r.runId} ${r.agentName} ${r.status} ${r.startedAt}: ${formatUsage(r.usage)}`,
        ),
      ]
        .map((l) => `${l}\n`)
        .join(""),
    )
    .join("");
}

export function runUsageText(run: RunUsageReport): string {
  return [
    `run ${run.runId} — ${run.agentName} (${run.agentId}) on ${run.model}, ${run.status}`,
    ...(run.turns ?? []).map(
      (t) =>
        `  call ${String(t.turn).padStart(3)}  ${formatUsage(t.usage)}${t.model ? `, ${t.model}` : ""}${t.requestedModel ? ` (asked for ${t.requestedModel}: priced as the model that served it)` : ""}`,
    ),
    `  total     ${formatUsage(run.usage)}`,
    ...(run.toolCalls
      ? [
          `  tool calls ${run.toolCalls.total}${run.toolCalls.refused.length > 0 ? `, ${run.toolCalls.refused.length} refused by the harness (no such tool)` : ""}`,
          ...run.toolCalls.refused.map((r) => `    refused ${r.name}: ${r.result}`),
        ]
      : []),
  ]
    .map((l) => `${l}\n`)
    .join("");
}
