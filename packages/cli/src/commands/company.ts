// `cadre company show|create`, through the operator port (the store, or a server with --server).
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError, subcommandRequired } from "../io.js";
import { withOperator } from "../operator/open.js";
import { budgetHint, budgetText } from "../operator/render/budgets.js";
import { companyOverviewText, createdCompanyText } from "../operator/render/company.js";

export const COMPANY_HELP = `Usage:
  cadre company show   [--company ID] [--data DIR] [--database URL] [--json]
  cadre company create --name NAME [--goal TEXT] [--workspace-root DIR] [--data DIR] [--database URL] [--json]

show    the company, its CEO's mode and why, the tools that mode lets succeed (and those it
        refuses) and the operator's next step in it, connectors with readiness (checked now:
        when, and what failed), team and approvals
create  a new company with a ready offline connector and its CEO (creates the data directory and
        its store when they do not exist; every other company command needs them).
        --workspace-root DIR: an absolute directory where each agent's workspace lives (DIR/AGENT_ID);
        default DATA_DIR/agents/AGENT_ID/workspace

${DATABASE_HELP}
${SERVER_HELP}`;

export async function companyCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub) throw subcommandRequired("company", ["show", "create"]);
  if (sub === "--help" || sub === "-h") return (io.out(`${COMPANY_HELP}\n`), 0);
  if (sub === "create") {
    const { values } = parse("company create", rest, {
      ...STORE_OPTIONS,
      name: { type: "string" },
      goal: { type: "string" },
      "workspace-root": { type: "string" },
    });
    if (values.help) return (io.out(`${COMPANY_HELP}\n`), 0);
    if (!values.name) throw new UsageError("company create: --name is required");
    const name = values.name;
    const { company, budget } = await withOperator(
      values,
      io,
      server,
      async (port) => {
        const root = values["workspace-root"];
        const company = await port.createCompany({
          name,
          ...(values.goal ? { goal: values.goal } : {}),
          ...(root !== undefined ? { workspaceRoot: root } : {}),
        });
        // The default budget and run caps are shown at creation: spending is never a silent default.
        return { company, budget: await port.budget({ companyId: company.id }) };
      },
      "create",
    );
    if (values.json) io.out(`${JSON.stringify(company)}\n`);
    else io.out(`${createdCompanyText(company)}${budgetText(budget)}${budgetHint(company.id)}`);
    return 0;
  }
  if (sub !== "show") throw new UsageError(`company: unknown subcommand "${sub}"; use show or create`);
  const { values } = parse("company show", rest, { ...STORE_OPTIONS, company: { type: "string" } });
  if (values.help) return (io.out(`${COMPANY_HELP}\n`), 0);
  await withOperator(
    values,
    io,
    server,
    async (port) => {
      const overview = await port.companyOverview(values.company);
      io.out(
        values.json
          ? `${JSON.stringify(overview)}\n`
          : companyOverviewText(overview, port.kind === "http" ? port.where : undefined),
      );
    },
    "read",
  );
  return 0;
}
