// `cadre runs list|why`: the company's runs (the failed ones since a time, say), and why one
// happened — the chain of causes back to an operator's action or a schedule. Locally or through a
// running API.
import { type RunWhy, whyRun, whyText } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { isOneOf, RUN_STATUSES } from "@cadre/model";
import type { RunRow } from "@cadre/store";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import { callApi, callApiAll } from "../client/api.js";
import type { ServerTarget } from "../client/server-option.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const RUNS_HELP = `Usage:
  cadre runs list [--company ID] [--status running|done|failed|cancelled] [--since TIME] [--json]
  cadre runs why RUN_ID [--json]

list: the company's runs, oldest first (id, agent, trigger, status, when, error); --status failed
--since 1d is the list of what failed lately. --since takes an ISO time or a duration back (30m, 1h, 2d).
why: why the run happened — each reason it was woken (a task assigned or done, a comment, an
approval decided, a schedule tick), who caused it, and the run that cause came from, back to an
operator's action or a schedule. --json prints { runId, runs: [{ runId, agentName, trigger, reasons:
[{ trigger, cause, by, taskId, approvalId, fromRunId }] }] }.
${DATABASE_HELP}
${SERVER_HELP}`;

const DURATION = /^(\d+)(m|h|d)$/;

function sinceOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = DURATION.exec(value);
  if (d)
    return new Date(
      Date.now() - Number(d[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[d[2] as "m"],
    ).toISOString();
  if (Number.isNaN(Date.parse(value)))
    throw new UserInputError(`--since must be an ISO time or a duration such as 1h or 2d (got "${value}")`, {
      since: "an ISO time, or N followed by m, h or d",
    });
  return new Date(value).toISOString();
}

type RunLine = Pick<RunRow, "id" | "agentId" | "trigger" | "status" | "startedAt" | "error"> & {
  agent?: string;
};

function runsText(runs: readonly RunLine[]): string {
  if (runs.length === 0) return "no runs match\n";
  return runs
    .map(
      (r) =>
        `${r.id}  ${r.startedAt}  ${(r.agent ?? r.agentId).padEnd(16)} ${r.trigger.padEnd(18)} ${r.status}${r.error ? `: ${r.error}` : ""}`,
    )
    .join("\n")
    .concat("\n");
}

export async function runsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${RUNS_HELP}\n`), sub ? 0 : 2);
  if (sub !== "list" && sub !== "why")
    throw new UsageError(`runs: unknown subcommand "${sub}"; use list or why`);
  const options = {
    ...STORE_OPTIONS,
    company: { type: "string" },
    status: { type: "string" },
    since: { type: "string" },
  } as const;
  const { values, positionals } = parse(`runs ${sub}`, rest, options, sub === "why" ? 1 : 0);
  if (values.help) return (io.out(`${RUNS_HELP}\n`), 0);
  if (
    sub === "why" &&
    (values.status !== undefined || values.since !== undefined || values.company !== undefined)
  )
    throw new UsageError("runs why: --company, --status and --since belong to runs list");
  const status = values.status;
  if (status !== undefined && !isOneOf(RUN_STATUSES, status))
    throw new UserInputError(`--status must be one of ${RUN_STATUSES.join(", ")} (got "${status}")`, {
      status: RUN_STATUSES.join(" | "),
    });
  const since = sinceOf(values.since);
  const runId = positionals[0];
  if (sub === "why" && !runId) throw new UsageError("runs why: RUN_ID is required (see cadre runs list)");

  const print = (why: RunWhy) =>
    io.out(values.json ? `${JSON.stringify(why)}\n` : `${whyText(why).join("\n")}\n`);
  if (server) {
    if (values.data !== undefined || values.database !== undefined)
      throw new UsageError(
        "--data and --database have no meaning with --server (the server keeps its own data)",
      );
    if (sub === "why")
      return (print(await callApi(server, "GET /api/runs/{id}/why", { params: { id: runId as string } })), 0);
    let companyId = values.company;
    if (companyId === undefined) {
      const companies = await callApiAll(server, "GET /api/companies");
      if (companies.length !== 1)
        throw new UsageError(
          `the API shows ${companies.length} companies; pick one with --company ID${companies.length ? `: ${companies.map((c) => c.id).join(", ")}` : ""}`,
        );
      companyId = (companies[0] as { id: string }).id;
    }
    const runs = await callApiAll(server, "GET /api/companies/{id}/runs", {
      params: { id: companyId },
      query: { ...(status ? { status } : {}), ...(since ? { since } : {}) },
    });
    io.out(values.json ? `${JSON.stringify(runs)}\n` : runsText(runs));
    return 0;
  }
  const { store, dataDir } = await openData(values, io.env, "read");
  try {
    if (sub === "why") return (print(await whyRun(store, runId as string)), 0);
    const company = await pickCompany(store, values.company, dataDir);
    const agents = new Map((await store.listAgents(company.id)).map((a) => [a.id, a.name]));
    const runs = (await store.listRuns({ companyId: company.id, ...(status ? { status } : {}) })).filter(
      (r) => since === undefined || r.startedAt >= since,
    );
    const shown = runs.map((r) => ({ ...r, agent: agents.get(r.agentId) ?? r.agentId }));
    io.out(
      values.json
        ? `${JSON.stringify(runs.map((r) => ({ id: r.id, agentId: r.agentId, trigger: r.trigger, status: r.status, startedAt: r.startedAt, endedAt: r.endedAt, error: r.error, stopReason: r.stopReason })))}\n`
        : runsText(shown),
    );
    return 0;
  } finally {
    await store.close();
  }
}
