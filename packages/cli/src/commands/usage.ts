// `cadre usage`: tokens, cost and prompt-cache hit rate per run, per agent and per company.
import { companyUsageReport, type CompanyUsageReport, runUsageReport } from "@cadre/company";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData } from "../context.js";
import type { CliIO } from "../io.js";
import { formatUsage } from "../usage-format.js";

export const USAGE_HELP = `Usage: cadre usage [--company ID] [--run ID] [--data DIR] [--database URL] [--json]

Token usage of stored runs: input (uncached), output, cache read, cache write, total, cost (USD, from
the model registry's prices for the agent's model) and cache hit rate = cache read / (input + cache
read + cache write). Per company, per agent and per run; with --run, that run per model call.

Options:
  --company ID   only this company (default: every company in the data directory)
  --run ID       one run, with one line per model call
  --json         one JSON line: { companies: [...] } or, with --run, { run: {...} }
  --data DIR     data directory (default ./.cadre)
${DATABASE_HELP}`;

function printCompany(io: CliIO, report: CompanyUsageReport): void {
  io.out(`${report.name} (${report.companyId})\n  total      ${formatUsage(report.usage)}\n`);
  for (const a of report.agents)
    io.out(`  agent      ${a.name} (${a.agentId}, ${a.model}), ${a.runs} run(s): ${formatUsage(a.usage)}\n`);
  for (const r of report.runs)
    io.out(`  run        ${r.runId} ${r.agentName} ${r.status} ${r.startedAt}: ${formatUsage(r.usage)}\n`);
}

export async function usageCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("usage", args, {
    ...STORE_OPTIONS,
    company: { type: "string" },
    run: { type: "string" },
  });
  if (values.help) return (io.out(`${USAGE_HELP}\n`), 0);
  const { store } = await openData(values, io.env);
  try {
    if (values.run) {
      const run = await runUsageReport(store, values.run);
      if (values.json) return (io.out(`${JSON.stringify({ run })}\n`), 0);
      io.out(`run ${run.runId} — ${run.agentName} (${run.agentId}) on ${run.model}, ${run.status}\n`);
      for (const t of run.turns ?? [])
        io.out(
          `  call ${String(t.turn).padStart(3)}  ${formatUsage(t.usage)}${t.model ? `, ${t.model}` : ""}${t.requestedModel ? ` (asked for ${t.requestedModel}: priced as the model that served it)` : ""}\n`,
        );
      io.out(`  total     ${formatUsage(run.usage)}\n`);
      return 0;
    }
    const ids = values.company ? [values.company] : (await store.listCompanies()).map((c) => c.id);
    const companies: CompanyUsageReport[] = [];
    for (const id of ids) companies.push(await companyUsageReport(store, id));
    if (values.json) return (io.out(`${JSON.stringify({ companies })}\n`), 0);
    if (companies.length === 0) io.out("no companies yet; run `cadre demo` first\n");
    for (const c of companies) printCompany(io, c);
    return 0;
  } finally {
    await store.close();
  }
}
