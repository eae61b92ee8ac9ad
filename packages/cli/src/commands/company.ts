// `cadre company show|create`.
import {
  connectorView,
  createCompany,
  loadCompanyState,
  MODE_TOOLS,
  refreshReadiness,
  sharedProbes,
} from "@cadre/company";
import { connectorLines } from "../connector-format.js";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const COMPANY_HELP = `Usage:
  cadre company show   [--company ID] [--data DIR] [--database URL] [--json]
  cadre company create --name NAME [--goal TEXT] [--data DIR] [--database URL] [--json]

show    the company, its CEO's mode and why, connectors with readiness (checked now: when, and
        what failed), team and approvals
create  a new company with a ready offline connector and its CEO

${DATABASE_HELP}`;

export async function companyCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") {
    io.out(`${COMPANY_HELP}\n`);
    return sub ? 0 : 2;
  }
  if (sub === "create") {
    const { values } = parse("company create", rest, {
      ...STORE_OPTIONS,
      name: { type: "string" },
      goal: { type: "string" },
    });
    if (values.help) return (io.out(`${COMPANY_HELP}\n`), 0);
    if (!values.name) throw new UsageError("company create: --name is required");
    const { store } = await openData(values, io.env);
    try {
      const company = await createCompany(store, {
        name: values.name,
        ...(values.goal ? { goal: values.goal } : {}),
        env: io.env,
      });
      io.out(
        values.json ? `${JSON.stringify(company)}\n` : `created company ${company.name} (${company.id})\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  }
  if (sub !== "show") throw new UsageError(`company: unknown subcommand "${sub}"; use show or create`);
  const { values } = parse("company show", rest, { ...STORE_OPTIONS, company: { type: "string" } });
  if (values.help) return (io.out(`${COMPANY_HELP}\n`), 0);
  const { dataDir, store } = await openData(values, io.env);
  try {
    const company = await pickCompany(store, values.company, dataDir);
    const state = await loadCompanyState(store, company.id);
    const approvals = await store.listApprovals(company.id);
    // Readiness answers the real question (C4-9): the probes run now, outside any transaction.
    await refreshReadiness(state.connectors, io.env, sharedProbes);
    const connectors = state.connectors.map((c) => connectorView(c, io.env, sharedProbes));
    if (values.json) {
      io.out(
        `${JSON.stringify({ company, ceo: state.ceo, ceoMode: state.mode, ceoModeReason: state.modeReason, toolsInMode: MODE_TOOLS[state.mode], connectors, agents: state.activeAgents, approvals })}\n`,
      );
      return 0;
    }
    io.out(`${company.name} (${company.id})\n  goal: ${company.goal || "(none)"}\n`);
    io.out(
      `  CEO mode: ${state.mode} — ${state.modeReason}\n  tools in this mode: ${MODE_TOOLS[state.mode].join(", ") || "none"}\n`,
    );
    io.out(
      `  settings: max team ${company.settings.maxTeamSize}, hire approval ${company.settings.requireHireApproval ? "required" : "not required"}, profile ${company.settings.profile}\n`,
    );
    io.out(`connectors\n`);
    for (const c of connectors) io.out(connectorLines(c, "  "));
    io.out(`team (${state.activeAgents.length} active)\n`);
    for (const a of state.activeAgents)
      io.out(
        `  ${a.id}  ${a.name} — ${a.role}${a.department ? `, ${a.department}` : ""} on ${a.connectorId}/${a.model} (via ${a.via})\n`,
      );
    io.out(`approvals (${approvals.length})\n`);
    for (const a of approvals)
      io.out(
        `  ${a.id}  ${a.type} "${a.title}" — ${a.status}${a.decisionNote ? ` (note: ${a.decisionNote})` : ""}\n`,
      );
    return 0;
  } finally {
    await store.close();
  }
}
