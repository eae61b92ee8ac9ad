// `cadre usage`: tokens, cost and prompt-cache hit rate per run, per agent and per company, through
// the operator port.
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import type { CliIO } from "../io.js";
import { withOperator } from "../operator/open.js";
import { companyUsageText, runUsageText } from "../operator/render/usage.js";

export const USAGE_HELP = `Usage: cadre usage [--company ID] [--run ID] [--data DIR] [--database URL] [--json]

Token usage of stored runs: input (uncached), output, cache read, cache write, total, cost (USD, each
model call priced from the spend ledger at the model that served it; "unknown" when no price is
known, never $0) and cache hit rate = cache read / (input + cache read + cache write). Per company, per agent and per run; with --run, that run per model call, and its tool calls: how
many, and each call the harness refused (it has no such tool) with what it answered the model.

Options:
  --company ID   only this company (default: every company in the data directory)
  --run ID       one run, with one line per model call and its tool calls
  --json         one JSON line: { companies: [...] } or, with --run, { run: {...} }
  --data DIR     data directory (default ./.cadre)
${DATABASE_HELP}
${SERVER_HELP}`;

export async function usageCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const { values } = parse("usage", args, {
    ...STORE_OPTIONS,
    company: { type: "string" },
    run: { type: "string" },
  });
  if (values.help) return (io.out(`${USAGE_HELP}\n`), 0);
  const runId = values.run;
  if (runId) {
    const run = await withOperator(values, io, server, (port) => port.runUsage(runId), "read");
    io.out(values.json ? `${JSON.stringify({ run })}\n` : runUsageText(run));
    return 0;
  }
  const companies = await withOperator(
    values,
    io,
    server,
    (port) => port.usage(values.company ? { companyId: values.company } : {}),
    "read",
  );
  io.out(values.json ? `${JSON.stringify({ companies })}\n` : companyUsageText(companies));
  return 0;
}
